// The store as the rest of the gateway sees it: the contract both backends keep, and no backend,
// so importing it loads no database driver. The backends: ./sqlite/index.js and ./pg/index.js.
//
// store/shared/  what both backends share: the contract (types), row shapes, statements, listing
//                queries and their bounds, the one migration list, and the contract test suites
// store/sqlite/  the embedded store: one file, group commit, WAL checkpoints on a worker
// store/pg/      the shared store for several instances: pools, transactions, NOTIFY and LISTEN
export * from './shared/types.js';
export { StoreUnavailableError, UNAVAILABLE_TEXT, within } from './shared/unavailable.js';
export { DEFAULT_CYCLE_LEASE_MS } from './shared/statements.js';
