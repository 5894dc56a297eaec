// resources/* and prompts/* for toolbelt's clients, from sources the embedder gives: the workspace's
// files, and the resources and prompts of proxied servers. Listing is paged across sources; a read
// goes to the source that owns the URI; subscriptions send resources/updated until unsubscribed.
import { ToolError } from '@toolbelt/core';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
  type GetPromptResult,
  type Prompt,
  type ReadResourceResult,
  type Resource,
  type ResourceTemplate,
} from '@modelcontextprotocol/sdk/types.js';

export interface ResourceSource {
  list(cursor?: string): Promise<{ resources: Resource[]; nextCursor?: string }>;
  /** Whether a read or subscription of this URI is this source's to answer. */
  owns(uri: string): boolean;
  read(uri: string): Promise<ReadResourceResult['contents'][number] | ReadResourceResult['contents']>;
  /** Calls `onChange` when the resource changes, until the returned function is called. */
  watch?(uri: string, onChange: () => void): Promise<() => void>;
  templates?(): Promise<ResourceTemplate[]>;
  /** Learns its URIs afresh (a proxied server's listing), for a URI asked for before any listing. */
  refresh?(): Promise<void>;
}

export interface PromptSource {
  list(): Promise<Prompt[]>;
  get(name: string, args: Record<string, string>): Promise<GetPromptResult>;
}

const RESOURCE_NOT_FOUND = -32002;

/** A ToolError as the JSON-RPC error MCP expects; anything else as an internal error. */
function asMcpError(err: unknown): McpError {
  if (err instanceof McpError) return err;
  if (err instanceof ToolError)
    return new McpError(err.code === 'NOT_FOUND' ? RESOURCE_NOT_FOUND : ErrorCode.InvalidParams, err.message);
  const code = (err as NodeJS.ErrnoException)?.code;
  if (code === 'ENOENT') return new McpError(RESOURCE_NOT_FOUND, `resource not found: ${(err as Error).message}`);
  return new McpError(ErrorCode.InternalError, (err as Error)?.message ?? String(err));
}

const encode = (s: number, c: string | undefined) => Buffer.from(JSON.stringify({ s, c })).toString('base64url');

function decode(cursor: string | undefined): { s: number; c?: string } {
  if (cursor === undefined) return { s: 0 };
  try {
    const parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { s: unknown; c?: unknown };
    if (Number.isInteger(parsed.s) && (parsed.c === undefined || typeof parsed.c === 'string'))
      return parsed as { s: number; c?: string };
  } catch {
    // Falls through to the error below.
  }
  throw new McpError(ErrorCode.InvalidParams, 'unknown cursor; list again from the start without one');
}

/** One page of resources/list across the sources; the cursor says which source and where in it. */
async function listPage(
  sources: readonly ResourceSource[],
  cursor: string | undefined,
): Promise<{ resources: Resource[]; nextCursor?: string }> {
  let { s, c } = decode(cursor);
  // A source with nothing (left) to list hands on to the next, so a page is never empty without reason.
  for (; s < sources.length; s++, c = undefined) {
    const page = await sources[s].list(c).catch((err) => Promise.reject(asMcpError(err)));
    const next =
      page.nextCursor !== undefined
        ? encode(s, page.nextCursor)
        : s + 1 < sources.length
          ? encode(s + 1, undefined)
          : undefined;
    if (page.resources.length || next === undefined)
      return { resources: page.resources, ...(next ? { nextCursor: next } : {}) };
  }
  return { resources: [] };
}

export function serveResources(server: Server, sources: readonly ResourceSource[]): () => void {
  const subscriptions = new Map<string, Promise<() => void>>();
  const owner = async (uri: string) => {
    let source = sources.find((s) => s.owns(uri));
    if (!source) {
      await Promise.all(sources.map((s) => s.refresh?.().catch(() => {})));
      source = sources.find((s) => s.owns(uri));
    }
    if (!source) throw new McpError(RESOURCE_NOT_FOUND, `no resource ${uri}; list the resources to see them`);
    return source;
  };
  server.setRequestHandler(ListResourcesRequestSchema, (request) => listPage(sources, request.params?.cursor));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({
    resourceTemplates: (await Promise.all(sources.map((s) => s.templates?.() ?? []))).flat(),
  }));
  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    const { uri } = request.params;
    try {
      const contents = await (await owner(uri)).read(uri);
      return { contents: Array.isArray(contents) ? contents : [contents] };
    } catch (err) {
      throw asMcpError(err);
    }
  });
  server.setRequestHandler(SubscribeRequestSchema, async (request) => {
    const { uri } = request.params;
    if (subscriptions.has(uri)) return {};
    const source = await owner(uri);
    if (!source.watch) throw new McpError(ErrorCode.InvalidParams, `${uri} cannot be subscribed to`);
    const watching = source.watch(uri, () => void server.sendResourceUpdated({ uri }).catch(() => {}));
    subscriptions.set(uri, watching);
    await watching.catch((err) => {
      subscriptions.delete(uri);
      throw asMcpError(err);
    });
    return {};
  });
  server.setRequestHandler(UnsubscribeRequestSchema, async (request) => {
    const stop = subscriptions.get(request.params.uri);
    subscriptions.delete(request.params.uri);
    (await stop?.catch(() => undefined))?.();
    return {};
  });
  return () => {
    for (const stop of subscriptions.values()) void stop.then((f) => f()).catch(() => {});
    subscriptions.clear();
  };
}

export function servePrompts(server: Server, prompts: PromptSource): void {
  server.setRequestHandler(ListPromptsRequestSchema, async () => ({ prompts: await prompts.list() }));
  server.setRequestHandler(GetPromptRequestSchema, async (request) => {
    try {
      return await prompts.get(request.params.name, request.params.arguments ?? {});
    } catch (err) {
      throw err instanceof ToolError ? new McpError(ErrorCode.InvalidParams, err.message) : asMcpError(err);
    }
  });
}
