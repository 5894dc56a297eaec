// The LSP family: diagnostics, symbols and code_lookup (definition, references, hover) over one pool of warm
// language servers per builtinTools() call, each in the sandbox's read-only profile; dispose() (the executor's close) shuts them down.
import type { Tool } from '@toolbelt/core';
import { codeLookupTool } from './code_lookup.js';
import { diagnosticsTool } from './diagnostics.js';
import { Sandbox } from '../sandbox/sandbox.js';
import { sandboxSettings } from '../sandbox/settings.js';
import type { EnvSettings } from '../shell/env.js';
import { sandboxedLauncher } from './launch.js';
import { LspPool } from './pool.js';
import type { LspRuntime } from './runtime.js';
import { serverSpecs, type LspConfigEntry } from './servers.js';
import { symbolsTool } from './symbols.js';

export interface LspOptions {
  /** The `lsp` section of toolbelt.config.json. */
  config?: Record<string, LspConfigEntry>;
  /** Shut a server down after this long unused. Default 10 minutes. */
  idleMs?: number;
  /** Longest wait for one request. Default 60 s. */
  requestTimeoutMs?: number;
  /** Longest wait for diagnostics to arrive. Default 60 s. */
  diagnosticsTimeoutMs?: number;
  /** Quiet time after the last diagnostics before they count as complete. Default 200 ms. */
  settleMs?: number;
  /** Where servers run (the read-only profile, no network); default: a sandbox with the default settings. */
  sandbox?: Sandbox;
  /** Which variables servers' environment loses (the shell section's hideEnv/passEnv); default the shell's defaults. */
  env?: EnvSettings;
}

export interface Lsp {
  tools: Tool[];
  pool: LspPool;
  runtime: LspRuntime;
}

export function createLsp(opts: LspOptions = {}): Lsp {
  const sandbox = opts.sandbox ?? new Sandbox(sandboxSettings(undefined));
  const pool = new LspPool({
    idleMs: opts.idleMs ?? 10 * 60_000,
    requestTimeoutMs: opts.requestTimeoutMs ?? 60_000,
    launch: sandboxedLauncher(sandbox, opts.env),
  });
  const runtime: LspRuntime = {
    pool,
    specs: serverSpecs(opts.config),
    diagnosticsTimeoutMs: opts.diagnosticsTimeoutMs ?? 60_000,
    settleMs: opts.settleMs ?? 200,
  };
  const dispose = () => pool.dispose();
  const tools = [diagnosticsTool, symbolsTool, codeLookupTool].map((make) =>
    Object.freeze({ ...make(runtime), dispose }),
  );
  return { tools, pool, runtime };
}

export function lspTools(opts: LspOptions = {}): Tool[] {
  return createLsp(opts).tools;
}

export { LspPool } from './pool.js';
export { serverSpecs, type LspConfigEntry, type ServerSpec } from './servers.js';
export { lspSection } from './section.js';
