// Group commit for the SQLite store: every write runs at once inside a shared transaction that is
// committed at the end of the next event-loop turn; each write's promise settles only after that
// commit, so nothing is acknowledged before it is durable, and concurrent requests share one commit.
import type Database from 'better-sqlite3';

export class GroupCommit {
  private open: Promise<void> | undefined;
  private readonly savepoint: Database.Statement;
  private readonly release: Database.Statement;
  private readonly rollbackTo: Database.Statement;

  constructor(
    private readonly db: Database.Database,
    /** Throws when no write may go ahead now (the file is gone or replaced). */
    private readonly guard: () => void = () => {},
  ) {
    this.savepoint = db.prepare('SAVEPOINT step');
    this.release = db.prepare('RELEASE step');
    this.rollbackTo = db.prepare('ROLLBACK TO step');
  }

  /**
   * Runs `fn` now, in the open transaction. Waiting for the second check phase rather than the
   * first costs an idle loop nothing (it passes straight through), while a busy one gathers one
   * more turn of requests: under load a commit then covers ~10 calls instead of ~6, which is ~9%
   * more calls/s (bench/gateway).
   */
  write<T>(fn: () => T, steps: 'one' | 'several' = 'one'): Promise<T> {
    if (!this.open) {
      try {
        this.guard();
        // Another process's lock fails this at once (busy_timeout 0): the request gets 503, the loop never blocks.
        this.db.exec('BEGIN IMMEDIATE');
      } catch (err) {
        return Promise.reject(err);
      }
      this.open = new Promise<void>((resolve, reject) =>
        setImmediate(() => setImmediate(() => this.commit(resolve, reject))),
      );
    }
    const committed = this.open;
    let result: T;
    try {
      // A single statement is atomic by itself; several run in a savepoint, so a failure undoes
      // all of them and nothing else of this turn.
      result = steps === 'one' ? fn() : this.atomically(fn);
    } catch (err) {
      return Promise.reject(err);
    }
    return committed.then(() => result);
  }

  /** Resolves once the open transaction, if any, is committed or has failed. */
  async settled(): Promise<void> {
    await this.open?.catch(() => {});
  }

  private atomically<T>(fn: () => T): T {
    this.savepoint.run();
    try {
      const out = fn();
      this.release.run();
      return out;
    } catch (err) {
      this.rollbackTo.run();
      this.release.run();
      throw err;
    }
  }

  private commit(resolve: () => void, reject: (err: unknown) => void): void {
    this.open = undefined;
    try {
      this.db.exec('COMMIT');
      resolve();
    } catch (err) {
      // A failed COMMIT (disk full, I/O error) fails the writes of this turn and nothing else: the
      // rollback may fail too (SQLite may have rolled back already), and must not end the process.
      try {
        if (this.db.inTransaction) this.db.exec('ROLLBACK');
      } catch {
        // nothing more to undo
      }
      reject(err);
    }
  }
}
