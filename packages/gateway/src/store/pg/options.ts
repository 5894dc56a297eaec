// The PostgreSQL store's options, apart from the code that opens it: the public types of the
// gateway never import pg's own (a consumer without @types/pg still type-checks).
export interface PgStoreOptions {
  /** The schema the tables live in (created when missing). Default: public. */
  schema?: string;
  /** Connections in the pool. Default 10. */
  maxConnections?: number;
  /** A query (or a wait for a connection) longer than this fails instead of hanging. Default 15 s. */
  queryTimeoutMs?: number;
}
