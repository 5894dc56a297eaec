// Decisions a person made once and asked us to keep: for the session, or always (saved).
import type { RememberTarget } from '../approval.js';
import type { Effect, Subject } from '../tool.js';

const SEVERITY: Record<Effect, number> = { read: 0, write: 1, execute: 2, destructive: 3 };
import { commandHasPrefix, normalizeCommand, pathUnder } from './match.js';
import type { DecisionStore, Remembered } from './types.js';

export function rememberedCovers(target: RememberTarget, tool: string, subject: Subject | undefined): boolean {
  if (target.tool !== tool) return false;
  switch (target.kind) {
    case 'tool':
      // A tool that runs commands is never approved wholesale: that would be "*".
      return !subject?.commands?.length;
    case 'prefix': {
      const commands = subject?.commands;
      return !!commands?.length && commands.every((c) => commandHasPrefix(c, target.prefix));
    }
    case 'exact':
      return subject?.command !== undefined && normalizeCommand(subject.command) === normalizeCommand(target.command);
    case 'path': {
      const paths = subject?.paths;
      return !!paths?.length && paths.every((p) => pathUnder(p, target.path));
    }
  }
}

export class RememberedDecisions {
  private entries: Remembered[] = [];
  private loaded = false;
  private loading: Promise<void> | undefined;

  constructor(private readonly store?: DecisionStore) {}

  /**
   * Undefined once the saved decisions are in (or there is no store), so a decision after the first
   * costs nothing; otherwise the load under way. A store that loads synchronously (a JSON file) is
   * read here and then, so even the first decision stays synchronous. A failed load is tried again
   * on the next call.
   */
  ready(): Promise<void> | undefined {
    if (this.loaded) return undefined;
    if (this.loading) return this.loading;
    let saved: ReturnType<DecisionStore['load']> = [];
    try {
      if (this.store) saved = this.store.load();
    } catch (err) {
      return Promise.reject(err);
    }
    if (Array.isArray(saved)) {
      this.take(saved);
      return undefined;
    }
    this.loading = Promise.resolve(saved).then(
      (list) => this.take(list),
      (err: unknown) => {
        this.loading = undefined;
        throw err;
      },
    );
    return this.loading;
  }

  /** Loads saved decisions once. The executor does this before its first decision; call it only to decide() by hand. */
  async load(): Promise<void> {
    await this.ready();
  }

  private take(saved: Remembered[]): void {
    if (this.loaded) return;
    this.entries.push(...saved);
    this.loaded = true;
    this.loading = undefined;
  }

  /**
   * Keeps a person's approval. Given the agent whose call it was, the entry is that agent's only: a
   * session entry covers that agent's calls in that session, an "always" entry that agent's calls.
   */
  async add(
    target: RememberTarget,
    scope: 'session' | 'always',
    sessionId: string,
    effect?: Effect,
    agentId?: string,
  ): Promise<void> {
    const entry: Remembered = {
      target,
      scope,
      createdAt: Date.now(),
      ...(effect ? { effect } : {}),
      ...(scope === 'session' ? { sessionId } : {}),
      ...(agentId !== undefined ? { agentId } : {}),
    };
    this.entries.push(entry);
    if (scope === 'always' && this.store) await this.store.save(entry);
  }

  /**
   * An entry covering this call; one approved for a milder effect never covers a more severe one.
   * An agent's entry covers that agent's calls only; a session entry without an agent covers only
   * calls without one (the same session id sent by an agent is another session); an "always"
   * entry without an agent (the terminal's, or saved before entries had agents) covers every call.
   */
  find(
    tool: string,
    subject: Subject | undefined,
    sessionId: string,
    effect: Effect = 'read',
    agentId?: string,
  ): Remembered | undefined {
    for (const e of this.entries) {
      if (e.scope === 'session' && (e.sessionId !== sessionId || e.agentId !== agentId)) continue;
      if (e.agentId !== undefined && e.agentId !== agentId) continue;
      if (e.effect && SEVERITY[effect] > SEVERITY[e.effect]) continue;
      if (rememberedCovers(e.target, tool, subject)) return e;
    }
    return undefined;
  }

  list(): readonly Remembered[] {
    return this.entries;
  }
}
