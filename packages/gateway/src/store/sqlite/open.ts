// Opening the gateway database: WAL and its checkpoints for a writable file, and the schema brought
// up to date (or refused, when it is newer than this toolbelt or not a gateway database at all).
import { existsSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { startCheckpointer, type Checkpointer } from './checkpointer.js';
import { SQLITE_LATEST_VERSION as LATEST_VERSION, SQLITE_MIGRATIONS } from '../shared/migrations.js';
import { openProblem, StoreVersionError, type StoreOptions } from './options.js';
import type { Row } from '../shared/rows.js';

export function openDatabase(
  file: string,
  opts: StoreOptions = {},
): { db: Database.Database; checkpointer?: Checkpointer } {
  try {
    return openOrThrow(file, opts);
  } catch (err) {
    throw openProblem(file, err);
  }
}

function openOrThrow(file: string, opts: StoreOptions): { db: Database.Database; checkpointer?: Checkpointer } {
  let db: Database.Database;
  let checkpointer: Checkpointer | undefined;
  if (opts.readonly) {
    if (!existsSync(file)) throw new Error(`no gateway database at ${file}`);
    db = new Database(file, { readonly: true, fileMustExist: true });
  } else {
    if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
    // Opening waits at most a second for another process's lock, then says so (see openProblem).
    db = new Database(file, { timeout: 1000 });
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    if (file !== ':memory:' && opts.backgroundCheckpoints !== false) {
      // The worker checkpoints every half second; this much larger threshold is only a fallback.
      db.pragma('wal_autocheckpoint = 20000');
      checkpointer = startCheckpointer(file);
    }
  }
  // A write never waits on another process's lock: it fails at once (503, retry) instead of blocking the event loop.
  db.pragma(`busy_timeout = ${opts.readonly ? 5000 : 0}`);
  migrate(db, file, opts.readonly ?? false);
  return checkpointer ? { db, checkpointer } : { db };
}

function migrate(db: Database.Database, file: string, readonly: boolean): void {
  const hasTable = db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'`).get();
  if (!hasTable && readonly) throw new StoreVersionError(`${file} is not a toolbelt gateway database`);
  if (!hasTable)
    db.exec(
      'CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)',
    );
  const current = (db.prepare('SELECT COALESCE(MAX(version), 0) AS v FROM schema_migrations').get() as Row).v as number;
  if (current > LATEST_VERSION) {
    throw new StoreVersionError(
      `${file} has schema version ${current}, newer than this toolbelt knows (${LATEST_VERSION}); upgrade toolbelt`,
    );
  }
  if (readonly) {
    if (current < LATEST_VERSION)
      throw new StoreVersionError(`${file} has schema version ${current}; start the gateway once to migrate it`);
    return;
  }
  for (const m of SQLITE_MIGRATIONS) {
    if (m.version <= current) continue;
    db.transaction(() => {
      db.exec(m.sql);
      db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(
        m.version,
        m.name,
        Date.now(),
      );
    })();
  }
}
