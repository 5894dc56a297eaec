// What a user of the SQLite store sees of it, apart from the store: kept out of the files that
// import better-sqlite3, so our public types never name its types.
import { StoreVersionError } from '../shared/dialect.js';

export { StoreVersionError };

/** The database could not be opened: one sentence saying what, where, and what to do (no stack trace). */
export class StoreOpenError extends Error {
  constructor(message: string, cause: unknown) {
    super(message, { cause });
    this.name = 'StoreOpenError';
  }
}

/** Why SQLite refused to open `file`, and what to do about it, as one sentence. */
export function openProblem(file: string, err: unknown): Error {
  if (err instanceof StoreVersionError) return err;
  const code = String((err as { code?: unknown }).code ?? '');
  const reason = (err as Error).message;
  const [what, todo] =
    /READONLY|CANTOPEN|EACCES|EROFS|EPERM/.test(code) || /readonly|read-only/i.test(reason)
      ? ['it or its directory is not writable', 'make both writable by this user, or set gateway.db to another path']
      : /CORRUPT|NOTADB/.test(code)
        ? [
            'it is not a SQLite database or is damaged',
            'restore it from a backup, or move it away to start with an empty one',
          ]
        : /BUSY|LOCKED/.test(code)
          ? [
              'another process holds its lock',
              'stop the other process using it (another gateway?), or set gateway.db to another path',
            ]
          : /FULL|ENOSPC/.test(code)
            ? ['the disk is full', 'free some space']
            : [reason, 'check the file and its directory'];
  return new StoreOpenError(`cannot open the gateway database ${file}: ${what} (${code || reason}); ${todo}.`, err);
}

export interface StoreOptions {
  /** Open an existing database for reading only (no migrations, no writes). */
  readonly?: boolean;
  /** Checkpoint the WAL on a worker thread (default true for a writable file). */
  backgroundCheckpoints?: boolean;
}
