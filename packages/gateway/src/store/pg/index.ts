// The PostgreSQL store: what the gateway and its users open it with.
export { openPgStore, PgStore } from './store.js';
export type { PgStoreOptions } from './options.js';
