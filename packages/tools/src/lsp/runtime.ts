// What the LSP tools share: the server pool, the server specs, and running a request on a file.
import { ToolError, type Classification, type ToolContext } from '@toolbelt/core';
import type { ServerCapabilities } from 'vscode-languageserver-protocol';
import type { LspClient } from './client.js';
import type { OpenDoc } from './documents.js';
import { locateFile, type LocatedFile } from './locate.js';
import type { LspPool } from './pool.js';
import type { ServerSpec } from './servers.js';

export interface LspRuntime {
  pool: LspPool;
  specs: ServerSpec[];
  /** How long diagnostics may take to arrive (a cold project load included). */
  diagnosticsTimeoutMs: number;
  /** Quiet time after the last publish before diagnostics count as complete. */
  settleMs: number;
}

export interface FileSession {
  client: LspClient;
  doc: OpenDoc;
  file: LocatedFile;
}

/** Opens (or refreshes) the file in its server and runs `fn`; a crashed server is restarted. */
export async function onFile<T>(
  rt: LspRuntime,
  ctx: ToolContext,
  path: string,
  fn: (s: FileSession) => Promise<T>,
  opts: { fresh?: boolean } = {},
): Promise<T> {
  const file = await locateFile(ctx, rt.specs, path);
  return rt.pool.with(
    file.spec,
    file.root,
    ctx.signal,
    async (client) => {
      const doc = await client.documents.sync(file.abs, opts);
      return fn({ client, doc, file });
    },
    file.workspace,
  );
}

export function requireCapability(client: LspClient, capability: keyof ServerCapabilities, what: string): void {
  if (!client.capabilities[capability]) {
    throw new ToolError('INVALID_PARAMS', `language server "${client.spec.name}" does not support ${what}`);
  }
}

/** LSP calls only read; the file is named so path rules apply to them. */
export async function readsFile(input: { path: string }, ctx: ToolContext): Promise<Classification> {
  const abs = await ctx.workspace.resolve(input.path, 'read');
  return { effect: 'read', subject: { paths: [abs] } };
}
