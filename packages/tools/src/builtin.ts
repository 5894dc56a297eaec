// Every built-in tool, ready to register. Each family adds itself here.
import type { Tool } from '@toolbelt/core';
import { parseToolsConfig } from './config.js';
import { Sandbox } from './sandbox/sandbox.js';
import { sandboxSettings } from './sandbox/settings.js';
import { shellSettings } from './shell/settings.js';
import { shellTools } from './shell/index.js';
import { gitTools } from './git/index.js';
import { lspTools } from './lsp/index.js';
import { webTools } from './web/index.js';
import { fsTools } from './fs/index.js';
import { searchTools } from './search/index.js';
import { withAliases } from './aliases/index.js';

export interface BuiltinOptions {
  /** toolbelt.config.json (or an object like it); its shell, sandbox, search, web and lsp sections are checked and read. */
  config?: unknown;
  /** Environment for credentials (BRAVE_API_KEY, ...); defaults to process.env. */
  env?: Record<string, string | undefined>;
  /** Where shell commands, git and language servers run; default: one from the config's `sandbox` section. */
  sandbox?: Sandbox;
}

export function builtinTools(opts: BuiltinOptions = {}): Tool[] {
  const config = parseToolsConfig(opts.config);
  // One sandbox for every family that starts programs: shell commands, git, language servers.
  const sandbox = opts.sandbox ?? new Sandbox(sandboxSettings(config.sandbox, opts.env ? { env: opts.env } : {}));
  // git and the language servers lose the variables shell commands lose (shell.hideEnv/passEnv).
  const { hideEnv, passEnv } = shellSettings(config.shell);
  const env = { hideEnv, passEnv };
  const tools = [
    ...fsTools(),
    ...searchTools({ settings: config.search ?? {} }),
    ...shellTools({ config, ...(opts.env ? { env: opts.env } : {}), sandbox }),
    ...gitTools({ sandbox, env }),
    ...lspTools({ ...(config.lsp ? { config: config.lsp } : {}), sandbox, env }),
    ...webTools({ ...(config.web ? { config: config.web } : {}), env: opts.env ?? process.env }),
  ];
  return tools.map(withAliases);
}
