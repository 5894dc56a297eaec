// What a user of the SQLite store sees of it, apart from the store: kept out of the files that
// import better-sqlite3, so our public types never name its types.

export class StoreVersionError extends Error {}

export interface StoreOptions {
  /** Open an existing database for reading only (no migrations, no writes). */
  readonly?: boolean;
  /** Checkpoint the WAL on a worker thread (default true for a writable file). */
  backgroundCheckpoints?: boolean;
}
