// Where toolbelt keeps state that agents must not reach: per user, outside every workspace. The
// gateway database holds every agent's calls; inside a workspace root, a shell command could read it.
import { createHash } from 'node:crypto';
import { realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, isAbsolute, join, resolve } from 'node:path';

type Env = Record<string, string | undefined>;

/** $XDG_STATE_HOME/toolbelt, else ~/.local/state/toolbelt. */
export function stateHome(env: Env = process.env): string {
  const xdg = env.XDG_STATE_HOME;
  // The XDG spec says a relative value is invalid and must be ignored.
  return join(xdg && isAbsolute(xdg) ? xdg : join(homedir(), '.local', 'state'), 'toolbelt');
}

/** One directory per workspace root: its name, for people, and a hash of its real path, so two roots never share one. */
export function rootStateDir(root: string, env: Env = process.env): string {
  let real = resolve(root);
  try {
    real = realpathSync.native(real);
  } catch {
    // A root that does not exist is refused elsewhere; hash the path as given.
  }
  const hash = createHash('sha256').update(real).digest('hex').slice(0, 16);
  const name =
    basename(real)
      .replace(/[^A-Za-z0-9._-]/g, '_')
      .slice(0, 40) || 'root';
  return join(stateHome(env), `${name}-${hash}`);
}

/** A PostgreSQL connection URL rather than a file. */
export const isPostgresUrl = (db: string): boolean => /^postgres(ql)?:\/\//i.test(db);

/**
 * The gateway database: a PostgreSQL URL as given, the configured path (relative to the root), else
 * gateway.db in the root's state directory.
 */
export function gatewayDbPath(configured: string | undefined, root: string, env: Env = process.env): string {
  if (configured && isPostgresUrl(configured)) return configured;
  if (configured) return isAbsolute(configured) ? configured : resolve(root, configured);
  return join(rootStateDir(root, env), 'gateway.db');
}

/** Where the database was before it moved out of the workspace. */
export function legacyGatewayDb(root: string): string {
  return join(resolve(root), '.toolbelt', 'gateway.db');
}

/** Where the CLI keeps a root's saved "always" approvals: beside its gateway database, outside the workspace. */
export function approvalsPath(root: string, env: Env = process.env): string {
  return join(rootStateDir(root, env), 'approvals.json');
}
