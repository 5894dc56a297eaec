// Every built-in tool, ready to register. Each family adds itself here.
import type { Tool } from '@toolbelt/core';
import { parseToolsConfig } from './config.js';
import type { Sandbox } from './sandbox/sandbox.js';
import { shellTools } from './shell/index.js';
import { gitTools } from './git/index.js';
import { lspTools } from './lsp/index.js';
import { webTools } from './web/index.js';
import { fsTools } from './fs/index.js';
import { searchTools } from './search/index.js';

export interface BuiltinOptions {
  /** toolbelt.config.json (or an object like it); its shell, sandbox, search, web and lsp sections are checked and read. */
  config?: unknown;
  /** Environment for credentials (BRAVE_API_KEY, ...); defaults to process.env. */
  env?: Record<string, string | undefined>;
  /** Where shell commands run; default: one from the config's `sandbox` section. */
  sandbox?: Sandbox;
}

export function builtinTools(opts: BuiltinOptions = {}): Tool[] {
  const config = parseToolsConfig(opts.config);
  return [
    ...fsTools(),
    ...searchTools({ settings: config.search ?? {} }),
    ...shellTools({ config, ...(opts.env ? { env: opts.env } : {}), ...(opts.sandbox ? { sandbox: opts.sandbox } : {}) }),
    ...gitTools(),
    ...lspTools({ ...(config.lsp ? { config: config.lsp } : {}) }),
    ...webTools({ ...(config.web ? { config: config.web } : {}), env: opts.env ?? process.env }),
  ];
}
