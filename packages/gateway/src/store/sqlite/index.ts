// The SQLite store: what the gateway and its users open it with.
export { openSqliteStore, SqliteStore } from './store.js';
export { openProblem, StoreOpenError, StoreVersionError } from './options.js';
