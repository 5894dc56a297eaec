// The SQLite file as an operator sees it: still there, still the one we opened, writable, with room
// to grow, and not locked by another process. Checked by /healthz and before each group commit, so
// a deleted or replaced file never takes writes that a restart would lose.
import { accessSync, constants, statSync, statfsSync } from 'node:fs';
import { dirname } from 'node:path';
import type Database from 'better-sqlite3';
import type { StoreHealth } from '../shared/types.js';
import { StoreUnavailableError } from '../shared/unavailable.js';

/** Below this much free space the disk counts as full: a commit would fail half-way through. */
const MIN_FREE_BYTES = 256 * 1024;

export class SqliteFile {
  private readonly identity: { dev: number; ino: number } | undefined;

  constructor(
    readonly file: string,
    private readonly db: Database.Database,
  ) {
    this.identity = file === ':memory:' ? undefined : identityOf(file);
  }

  /** What is wrong with the file for writing, or undefined when nothing is (cheap: a stat). */
  problem(): string | undefined {
    if (!this.identity) return undefined;
    let now: { dev: number; ino: number };
    try {
      now = identityOf(this.file);
    } catch {
      return `the database file ${this.file} is gone; restore it and restart the gateway (writes are refused until then)`;
    }
    if (now.dev !== this.identity.dev || now.ino !== this.identity.ino)
      return `the database file ${this.file} was replaced by another file; restart the gateway to use the new one (writes are refused until then)`;
    return undefined;
  }

  /** Throws (503 to the client) when a write must not go ahead. */
  guard(): void {
    const problem = this.problem();
    if (problem) throw new StoreUnavailableError(new Error(problem));
  }

  /** The whole truth for /healthz: the file, its permissions, free space and another process's lock. */
  health(): StoreHealth {
    const problem = this.problem() ?? this.writable() ?? this.space() ?? this.lock();
    return problem ? { ok: false, error: problem } : { ok: true };
  }

  private writable(): string | undefined {
    if (!this.identity) return undefined;
    try {
      accessSync(this.file, constants.W_OK);
      accessSync(dirname(this.file), constants.W_OK);
      return undefined;
    } catch (err) {
      return `the database file ${this.file} is read-only (${(err as NodeJS.ErrnoException).code}); make it and its directory writable`;
    }
  }

  private space(): string | undefined {
    if (!this.identity) return undefined;
    const fs = statfsSync(dirname(this.file));
    const free = fs.bavail * fs.bsize;
    return free < MIN_FREE_BYTES
      ? `the disk holding ${this.file} is full (${free} bytes free); free some space`
      : undefined;
  }

  /** Another process holding the write lock: probed between our own commits only. */
  private lock(): string | undefined {
    if (this.db.inTransaction || !this.db.open) return undefined;
    try {
      this.db.exec('BEGIN IMMEDIATE');
      this.db.exec('ROLLBACK');
      return undefined;
    } catch (err) {
      return `the database file ${this.file} cannot be written: ${(err as Error).message}; stop the other process holding it`;
    }
  }
}

function identityOf(file: string): { dev: number; ino: number } {
  const s = statSync(file);
  return { dev: s.dev, ino: s.ino };
}
