// The gateway database named by --db, TOOLBELT_DB or gateway.db: a SQLite file, or a postgres://
// URL for several `toolbelt serve` instances sharing one database. `?schema=NAME` on the URL keeps
// the gateway's tables in that schema (default public).
import { openPgStore, openSqliteStore, type GatewayStore } from '@toolbelt/gateway';
import { isPostgresUrl } from './state-paths.js';

export { isPostgresUrl };

/** The URL without its password, for banners and errors. */
export function describeDb(db: string): string {
  if (!isPostgresUrl(db)) return db;
  try {
    const u = new URL(db);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return 'postgres://(a URL that does not parse)';
  }
}

/** The connection URL and schema of a postgres:// database: `schema` is ours, not the driver's. */
export function pgTarget(db: string): { url: string; schema?: string } {
  let u: URL;
  try {
    u = new URL(db);
  } catch {
    throw new Error(`${describeDb(db)} is not a valid URL; write it as postgres://user:password@host:5432/database`);
  }
  const schema = u.searchParams.get('schema') ?? undefined;
  u.searchParams.delete('schema');
  return schema ? { url: u.toString(), schema } : { url: u.toString() };
}

/** Opens (creating and migrating when needed) the gateway database `db`. */
export async function openGatewayDb(db: string, opts: { readonly?: boolean } = {}): Promise<GatewayStore> {
  if (!isPostgresUrl(db)) return openSqliteStore(db, opts);
  const { url, schema } = pgTarget(db);
  return openPgStore(url, schema ? { schema } : {});
}
