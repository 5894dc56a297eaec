// Credentials in the workspace's .env, as other designs keep them (BRAVE_API_KEY, gateway tokens
// named by tokenEnv, TOOLBELT_GATEWAY_TOKEN). They reach only toolbelt's own settings: the runtime
// reads them into its own environment object, never into process.env, so no command or MCP server
// started by an agent inherits them. The file stays protected from the tools like any secret.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseEnv } from 'node:util';
import { ConfigError } from '@toolbelt/core';

export type Env = Record<string, string | undefined>;

/**
 * Variables that say where toolbelt keeps its state and whom it trusts: the workspace's `.env` may
 * have been written by an agent, so they come from the real environment only (an agent's
 * TOOLBELT_DB would hold approvals it wrote; its XDG_STATE_HOME, trusted configs).
 */
const ENV_ONLY = [
  'TOOLBELT_DB',
  'TOOLBELT_TRUST_CONFIG',
  'XDG_STATE_HOME',
  'XDG_CONFIG_HOME',
  'XDG_DATA_HOME',
  'XDG_CACHE_HOME',
  'HOME',
  'PATH',
];

/** `env` over the variables of `<root>/.env`: a variable set in the environment wins over the file; ENV_ONLY ones are never taken from it. */
export function withWorkspaceEnv(root: string, env: Env): Env {
  const file = join(root, '.env');
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return env;
    throw new ConfigError(file, [
      `cannot read it (${code ?? (err as Error).message}); make it a readable file of NAME=value lines, or remove it`,
    ]);
  }
  const fromFile: Env = parseEnv(text);
  for (const name of ENV_ONLY) delete fromFile[name];
  for (const [name, value] of Object.entries(env)) if (value !== undefined) fromFile[name] = value;
  return fromFile;
}
