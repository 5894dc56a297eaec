// What a command runs with, known before anything is built: the trusted config, the roots, the mode,
// and where state goes (the gateway database, saved approvals). runtime.ts builds from it.
import { isAbsolute, join } from 'node:path';
import { MODES, policyOptionsFrom, type Mode } from '@toolbelt/core';
import { workspaceOptionsFrom } from '@toolbelt/tools';
import { UsageError } from './command.js';
import { canonicalMode, MODE_ALIASES } from './config/aliases.js';
import { withWorkspaceEnv } from './config/dotenv.js';
import { loadTrustedConfig } from './config/open.js';
import { rootHolding } from './config/trust-store.js';
import type { ToolbeltConfig } from './config/schema.js';
import { approvalsPath, gatewayDbPath, isPostgresUrl, stateHome } from './state-paths.js';

export interface RuntimeFlags {
  root?: string[];
  config?: string;
  mode?: string;
  /** The gateway database (toolbelt serve --db); kept from the file tools like the config. */
  db?: string;
}

/** The gateway's TOKEN_FILE_ENV, named here so that every command need not load the gateway. */
const TOKEN_FILE_ENV = 'TOOLBELT_GATEWAY_TOKEN_FILE';

/** What is known before anything is built: where a front end's own state goes. */
export interface RuntimePlan {
  config: ToolbeltConfig;
  configPath: string | undefined;
  roots: string[];
  mode: Mode;
  stateDir: string;
  gatewayDb: string;
  env: Record<string, string | undefined>;
  /**
   * Where the CLI saves "always" approvals: the root's directory under the user's state directory,
   * outside every root; undefined when that directory is inside a root (approvals then last one run).
   */
  approvals: string | undefined;
  /** The user's state directory as the real environment names it (never the workspace .env). */
  stateHome: string;
}

/**
 * The config to run with and the roots. A config inside a root is refused (UntrustedConfigError)
 * unless `toolbelt trust` recorded its exact bytes; `env` is the real environment, never the workspace .env.
 */
export function loadConfig(
  flags: RuntimeFlags,
  env: Record<string, string | undefined> = process.env,
): { config: ToolbeltConfig; configPath: string | undefined; roots: string[] } {
  return loadTrustedConfig(flags, env);
}

/** --mode (our words or another design's), else the config's, else the policy's default (safe). */
export function resolveMode(flag: string | undefined, config: ToolbeltConfig): Mode {
  if (flag === undefined) return policyOptionsFrom(config).mode;
  const mode = canonicalMode(flag);
  if (!mode)
    throw new UsageError(
      `unknown mode "${flag}"; use one of ${MODES.join(', ')} (or ${Object.keys(MODE_ALIASES).join(', ')}: see docs/configuration.md)`,
    );
  return mode;
}

/**
 * toolbelt's own files that its name rules (toolbelt.config.json, .toolbelt/) miss, wherever they
 * are: the --config file, the gateway database and its journals, the per-user state directory
 * (other roots' databases), and token files. The guard refuses them to every file tool.
 */
export function ownFiles(plan: RuntimePlan): string[] {
  const { configPath, gatewayDb, config, env } = plan;
  const tokenFiles = (config.gateway?.tokens ?? []).flatMap((t) => (t.tokenFile ? [t.tokenFile] : []));
  return [
    ...(configPath ? [configPath] : []),
    ...(isPostgresUrl(gatewayDb) ? [] : ['', '-wal', '-shm', '-journal'].map((suffix) => gatewayDb + suffix)),
    ...new Set([stateHome(env), plan.stateHome]),
    ...tokenFiles.filter((f) => isAbsolute(f)),
    ...(env[TOKEN_FILE_ENV] && isAbsolute(env[TOKEN_FILE_ENV]) ? [env[TOKEN_FILE_ENV]] : []),
  ];
}

export function planRuntime(flags: RuntimeFlags, env: Record<string, string | undefined>): RuntimePlan {
  const { config, configPath, roots } = loadConfig(flags, env);
  const mode = resolveMode(flags.mode, config);
  // toolbelt's own settings read the workspace's .env too; commands never see it.
  const ownEnv = withWorkspaceEnv(roots[0], env);
  const gatewayDb = gatewayDbPath(
    flags.db ?? (ownEnv.TOOLBELT_DB || undefined) ?? config.gateway?.db,
    roots[0],
    ownEnv,
  );
  // Trust and saved approvals follow the real environment: the workspace .env is the agent's to write.
  const home = stateHome(env);
  const allRoots = workspaceOptionsFrom(config.workspace, roots).roots;
  const approvals = rootHolding(home, allRoots) ? undefined : approvalsPath(roots[0], env);
  return {
    config,
    configPath,
    roots,
    mode,
    stateDir: join(roots[0], '.toolbelt'),
    gatewayDb,
    env: ownEnv,
    approvals,
    stateHome: home,
  };
}
