// Every built-in tool, ready to register. Each family adds itself here.
import type { Tool } from '@toolbelt/core';
import type { Sandbox } from './sandbox/sandbox.js';
import { shellTools } from './shell/index.js';
import { gitTools } from './git/index.js';
import { lspTools, type LspConfigEntry } from './lsp/index.js';
import { webTools, type WebConfig } from './web/index.js';
import { fsTools } from './fs/index.js';
import { searchTools } from './search/index.js';

export interface BuiltinOptions {
  /** Settings from toolbelt.config.json (shell, search, web, lsp sections). */
  config?: Record<string, unknown>;
  /** Environment for credentials (BRAVE_API_KEY, ...); defaults to process.env. */
  env?: Record<string, string | undefined>;
  /** Where shell commands run; default: one from the config's `sandbox` section. */
  sandbox?: Sandbox;
}

export function builtinTools(opts: BuiltinOptions = {}): Tool[] {
  return [
    ...fsTools(),
    ...searchTools({ config: opts.config }),
    ...shellTools({ config: opts.config, ...(opts.env ? { env: opts.env } : {}), ...(opts.sandbox ? { sandbox: opts.sandbox } : {}) }),
    ...gitTools(),
    ...lspTools({ config: opts.config?.lsp as Record<string, LspConfigEntry> | undefined }),
    ...webTools({ config: opts.config?.web as WebConfig | undefined, env: opts.env ?? process.env }),
  ];
}
