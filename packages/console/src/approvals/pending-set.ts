// What waits for a person (approval requests, tools' questions) as the page knows it: a snapshot
// from the API plus the event stream.
// A snapshot is asked for on every (re)connect, and the stream keeps talking while it is in
// flight, so a snapshot taken before a call was asked must not drop that call, and one taken
// before a decision must not bring the decided call back.
interface Waiting {
  callId: string;
}

export const withRequest = <T extends Waiting>(all: T[], r: T): T[] =>
  all.some((x) => x.callId === r.callId) ? all : [...all, r];
export const withoutCall = <T extends Waiting>(all: T[], callId: string): T[] => all.filter((x) => x.callId !== callId);

export class PendingSet<T extends Waiting> {
  /** Asked and decided since the newest snapshot was requested. */
  private askedSince = new Map<string, T>();
  private decidedSince = new Set<string>();

  /** A snapshot is being requested: from here on, the stream's news is kept beside it. */
  snapshotRequested(): void {
    this.askedSince.clear();
    this.decidedSince.clear();
  }

  /** The stream says a call is waiting. */
  asked(r: T): void {
    this.askedSince.set(r.callId, r);
    this.decidedSince.delete(r.callId);
  }

  /** The stream (or this page) says a call was decided or finished. */
  decided(callId: string): void {
    this.decidedSince.add(callId);
    this.askedSince.delete(callId);
  }

  /** The snapshot (oldest first) as the truth, less what was decided since, plus what was asked since. */
  merge(snapshot: T[]): T[] {
    const kept = snapshot.filter((r) => !this.decidedSince.has(r.callId));
    const ids = new Set(kept.map((r) => r.callId));
    return [...kept, ...[...this.askedSince.values()].filter((r) => !ids.has(r.callId))];
  }
}
