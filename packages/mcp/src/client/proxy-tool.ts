// A remote MCP tool as a core tool: its JSON Schema validates the input before the call leaves, its
// annotations give the effect (as far as the config trusts them), and its result comes back as a
// ToolOutput (isError -> ToolError).
import { defineGroup, defineTool, ToolError, type Tool, type ToolContext, type ToolGroupInfo } from '@toolbelt/core';
import type { CallToolResult, Progress, Tool as RemoteTool } from '@modelcontextprotocol/sdk/types.js';
import { errorText, toToolOutput } from './content.js';
import type { Asker } from './elicitation.js';
import { effectFromAnnotations, type RemoteTrust } from './effect.js';

/** What a proxy needs from its server's connection. */
export interface RemoteCaller {
  call(
    tool: string,
    args: Record<string, unknown>,
    opts: { signal: AbortSignal; onprogress?: (p: Progress) => void; elicit?: Asker },
  ): Promise<CallToolResult>;
}

export interface ProxyToolOptions {
  /** The registry name (`server__tool`, already made unique). */
  name: string;
  server: string;
  remote: RemoteTool;
  caller: RemoteCaller;
  /** How far this server's hints are believed (config `trust` and `minEffect`). */
  trust?: RemoteTrust;
  /** Hard limit per call; progress only extends the server's idle timeout up to this. */
  timeoutMs: number;
}

const PERMISSIVE = { type: 'object' } as const;

function describe(remote: RemoteTool, server: string): string {
  const text = remote.description?.trim();
  return (
    text ||
    `${remote.title ?? remote.annotations?.title ?? remote.name} (a tool of MCP server "${server}", which gave no description).`
  );
}

/** A server's tools form one group, `mcp:<server>`, whose summary names the server and lists them. */
function serverGroup(server: string): ToolGroupInfo {
  return defineGroup(`mcp:${server}`, (tools) => `tools of MCP server "${server}": ${tools.join(', ')}`);
}

export function proxyTool(opts: ProxyToolOptions): Tool {
  const { remote, server, caller } = opts;
  const hints = remote.annotations;
  const title = remote.title ?? hints?.title;
  const effect = effectFromAnnotations(hints, opts.trust);
  const base = {
    name: opts.name,
    ...(title ? { title } : {}),
    description: describe(remote, server),
    category: 'mcp',
    group: serverGroup(server),
    effect,
    timeoutMs: opts.timeoutMs,
    annotations: {
      ...(hints?.idempotentHint !== undefined ? { idempotent: hints.idempotentHint } : {}),
      // MCP's default for openWorldHint is true.
      openWorld: hints?.openWorldHint ?? true,
      ...(hints?.destructiveHint !== undefined ? { destructive: hints.destructiveHint } : {}),
    },
    async execute(input: Record<string, unknown>, ctx: ToolContext) {
      const result = await caller.call(remote.name, input, {
        signal: ctx.signal,
        elicit: (question) => ctx.elicit(question),
        onprogress: (p) =>
          ctx.emit({
            type: 'progress',
            progress: p.progress,
            ...(p.total !== undefined ? { total: p.total } : {}),
            ...(p.message ? { message: p.message } : {}),
          }),
      });
      if (result.isError) {
        throw new ToolError(
          'EXECUTION_FAILED',
          `${remote.name} on MCP server "${server}" returned an error: ${errorText(result)}`,
        );
      }
      return toToolOutput(result, server, remote.name);
    },
  };
  // A schema our validator cannot compile is dropped (output) or loosened (input): the server still
  // validates, and models still see the schema it published.
  const builds = [
    () =>
      defineTool<Record<string, unknown>>({
        ...base,
        input: remote.inputSchema,
        ...(remote.outputSchema ? { output: remote.outputSchema } : {}),
      }),
    () => defineTool<Record<string, unknown>>({ ...base, input: remote.inputSchema }),
  ];
  for (const build of builds) {
    try {
      return build();
    } catch {
      // Try the next, looser build.
    }
  }
  const loose = defineTool<Record<string, unknown>>({ ...base, input: PERMISSIVE });
  return Object.freeze({ ...loose, jsonSchema: { ...remote.inputSchema } });
}
