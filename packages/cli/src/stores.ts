// The CLI's stores: saved "always" approvals (a JSON file in the user's state directory, outside the
// workspace) and the execution log (JSON lines under <root>/.toolbelt/).
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync, renameSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { DecisionStore, ExecutionLogEntry, LogSink, Remembered } from '@toolbelt/core';

class JsonDecisionStore implements DecisionStore {
  constructor(private readonly file: string) {}

  load(): Remembered[] {
    if (!existsSync(this.file)) return [];
    try {
      const data = JSON.parse(readFileSync(this.file, 'utf8'));
      return Array.isArray(data) ? data : [];
    } catch (err) {
      throw new Error(`cannot read saved approvals ${this.file}: ${(err as Error).message}. Fix or delete the file.`, {
        cause: err,
      });
    }
  }

  save(entry: Remembered): void {
    const all = [...this.load(), entry];
    mkdirSync(dirname(this.file), { recursive: true });
    const tmp = `${this.file}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(all, null, 2) + '\n');
    renameSync(tmp, this.file);
  }
}

/** "Always" approvals kept for this run only, where no file is safe to keep them in; says so at the first. */
class UnsavedDecisionStore implements DecisionStore {
  private readonly entries: Remembered[] = [];
  private told = false;

  constructor(
    private readonly notice: string,
    private readonly warn: (line: string) => void,
  ) {}

  load(): Remembered[] {
    return [...this.entries];
  }

  save(entry: Remembered): void {
    this.entries.push(entry);
    if (!this.told) this.warn(this.notice);
    this.told = true;
  }
}

/** Buffers entries and appends them as JSON lines on flush (and at least every second). */
export class JsonlLogSink implements LogSink {
  // Entries are serialized at flush time, off the call's path.
  private buffer: ExecutionLogEntry[] = [];
  private timer: NodeJS.Timeout | undefined;

  constructor(readonly file: string) {}

  write(entry: ExecutionLogEntry): void {
    this.buffer.push(entry);
    if (!this.timer) {
      this.timer = setTimeout(() => void this.flush(), 1000);
      this.timer.unref();
    }
  }

  async flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (!this.buffer.length) return;
    let lines = '';
    for (const entry of this.buffer) lines += JSON.stringify(entry) + '\n';
    this.buffer = [];
    mkdirSync(dirname(this.file), { recursive: true });
    appendFileSync(this.file, lines);
  }
}

export function readJsonl<T>(file: string): T[] {
  if (!existsSync(file)) return [];
  const out: T[] = [];
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    try {
      out.push(JSON.parse(line));
    } catch {
      // A torn last line after a crash is skipped, not fatal.
    }
  }
  return out;
}

/**
 * The CLI's own store of "always" approvals, outside the workspace (`approvals`; undefined when the
 * state directory `stateHome` is inside a root). The file that held them, <stateDir>/approvals.json,
 * is not read: an agent can write it. Says so once when it is there.
 */
export function defaultDecisions(
  plan: { stateDir: string; approvals: string | undefined; stateHome: string },
  warn: (line: string) => void,
): DecisionStore {
  const legacy = join(plan.stateDir, 'approvals.json');
  const kept = plan.approvals ? `are kept in ${plan.approvals}` : 'last one run: the state directory is inside a root';
  if (existsSync(legacy))
    warn(`toolbelt: ${legacy} is no longer read (saved approvals ${kept}); approve again, then delete it.`);
  if (plan.approvals) return new JsonDecisionStore(plan.approvals);
  return new UnsavedDecisionStore(
    `toolbelt: "always" approvals last this run only: the state directory ${plan.stateHome} is inside a workspace root, where an agent can write; set XDG_STATE_HOME outside every root.`,
    warn,
  );
}
