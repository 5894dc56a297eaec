// Finding and reading the config a command runs with: `--config FILE`, else toolbelt.config.json in
// the first root. Its bytes are read once; the trust check and the parse both see those bytes, so a
// file swapped in between is never used. A config inside a root must be trusted (./trust.ts).
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ConfigError } from '@toolbelt/core';
import { workspaceOptionsFrom } from '@toolbelt/tools';
import { UsageError } from '../command.js';
import { CONFIG_FILE, parseConfig } from './load.js';
import type { ToolbeltConfig } from './schema.js';
import { refusal, trustState, UntrustedConfigError, usable, type TrustState } from './trust.js';

type Env = Record<string, string | undefined>;

export interface ConfigFlags {
  root?: string[];
  config?: string;
}

export interface InspectedConfig {
  /** The workspace roots given (--root, else the current directory), resolved. */
  roots: string[];
  /** Where the config is looked for, whether or not it is there. */
  path: string;
  /** Absent when there is no config file. */
  bytes?: Buffer;
  trust?: TrustState;
  config?: ToolbeltConfig;
  /** Why the file does not parse. */
  error?: Error;
}

function readBytes(path: string): Buffer {
  try {
    return readFileSync(path);
  } catch (err) {
    throw new ConfigError(path, [`cannot read it: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`]);
  }
}

/** The roots the config adds (workspace.roots, relative to the first root): a config inside one of them is inside the workspace too. */
const addedRoots = (config: ToolbeltConfig | undefined, first: string): string[] =>
  workspaceOptionsFrom(config?.workspace, [first]).roots.slice(1);

/** The config and its trust state, nothing refused: for `toolbelt doctor`, and for loadTrustedConfig. */
export function inspectConfig(flags: ConfigFlags, env: Env): InspectedConfig {
  const roots = (flags.root?.length ? flags.root : [process.cwd()]).map((r) => resolve(r));
  for (const r of roots) if (!existsSync(r)) throw new UsageError(`--root ${r} does not exist`);
  const path = flags.config ? resolve(flags.config) : join(roots[0], CONFIG_FILE);
  if (!existsSync(path)) {
    if (flags.config) throw new UsageError(`--config ${path} does not exist`);
    return { roots, path };
  }
  const bytes = readBytes(path);
  let config: ToolbeltConfig | undefined;
  let error: Error | undefined;
  try {
    config = parseConfig(path, bytes.toString('utf8'));
  } catch (err) {
    error = err as Error;
  }
  const trust = trustState(path, bytes, [...roots, ...addedRoots(config, roots[0])], env);
  return { roots, path, bytes, trust, ...(config ? { config } : {}), ...(error ? { error } : {}) };
}

/** The config to run with: refused (UntrustedConfigError) when it is in a root and not trusted as it is; {} when there is none. */
export function loadTrustedConfig(
  flags: ConfigFlags,
  env: Env,
): { config: ToolbeltConfig; configPath: string | undefined; roots: string[] } {
  const found = inspectConfig(flags, env);
  if (!found.bytes) return { config: {}, configPath: undefined, roots: found.roots };
  if (found.trust && !usable(found.trust))
    throw new UntrustedConfigError(refusal(found.path, found.trust, found.roots[0])!);
  if (found.error) throw found.error;
  return { config: found.config!, configPath: found.path, roots: found.roots };
}
