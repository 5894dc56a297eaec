// The resources and prompts of the proxied servers, for toolbelt's own MCP clients: a resource
// keeps its URI (reads go to the server that listed it) and gets the name `server__name`; a prompt
// is `server__prompt`, like a proxied tool. Every read of a resource is judged first (see UpstreamRead):
// an upstream server is no more trusted for its resources than for its tools.
import { ToolError, type Effect } from '@toolbelt/core';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  ResourceUpdatedNotificationSchema,
  type GetPromptResult,
  type Prompt,
  type Resource,
  type ResourceTemplate,
} from '@modelcontextprotocol/sdk/types.js';
import { proxyNames, resourceReadName } from '../names.js';
import { effectFromAnnotations } from './effect.js';
import type { PromptSource, ResourceSource } from '../server/resources.js';
import type { McpManager } from './manager.js';

const TIMEOUT = { timeout: 30_000 };

/** A read of a proxied server's resource, as the policy judges it: like a call of one of its tools. */
export interface UpstreamRead {
  server: string;
  uri: string;
  /** The name rules give it: `server__resources.read` (`server__*` covers it too). */
  tool: string;
  /** A read-only call of that server: `read` when the config trusts it (`"trust": "read"`), else `execute`; `minEffect` a floor. */
  effect: Effect;
}

export interface McpCatalogOptions {
  /** Why this read may not happen now (it is refused, with that message), or undefined to let it. */
  judge(read: UpstreamRead): Promise<string | undefined> | string | undefined;
}

export class McpCatalog {
  /** URI -> the server that listed it. */
  private readonly uris = new Map<string, string>();
  /** Our prompt name -> [server, its prompt name]. */
  private readonly promptNames = new Map<string, [string, string]>();
  private readonly watchers = new Map<string, Set<() => void>>();
  readonly resources: ResourceSource;
  readonly prompts: PromptSource;

  constructor(
    private readonly manager: McpManager,
    private readonly opts: McpCatalogOptions,
  ) {
    this.resources = {
      list: async () => ({ resources: await this.listResources() }),
      owns: (uri) => this.uris.has(uri),
      read: (uri) => this.read(uri),
      watch: (uri, onChange) => this.watch(uri, onChange),
      templates: () => this.templates(),
      refresh: async () => void (await this.listResources()),
    };
    this.prompts = { list: () => this.listPrompts(), get: (name, args) => this.getPrompt(name, args) };
  }

  /** Connected servers that offer `capability`. */
  private offering(capability: 'resources' | 'prompts'): [string, Client][] {
    return this.manager.servers().flatMap((name) => {
      const client = this.manager.connection(name)?.remote;
      return client?.getServerCapabilities()?.[capability] ? [[name, client] as [string, Client]] : [];
    });
  }

  private async listResources(): Promise<Resource[]> {
    const all: Resource[] = [];
    for (const [server, client] of this.offering('resources')) {
      let cursor: string | undefined;
      do {
        const page = await client.listResources(cursor ? { cursor } : {}, TIMEOUT).catch(() => undefined);
        for (const r of page?.resources ?? []) {
          if (!this.uris.has(r.uri)) this.uris.set(r.uri, server);
          all.push({ ...r, name: `${server}__${r.name}` });
        }
        cursor = page?.nextCursor;
      } while (cursor);
    }
    return all;
  }

  private async templates(): Promise<ResourceTemplate[]> {
    const lists = await Promise.all(
      this.offering('resources').map(async ([server, client]) => {
        const page = await client.listResourceTemplates({}, TIMEOUT).catch(() => undefined);
        return (page?.resourceTemplates ?? []).map((t) => ({ ...t, name: `${server}__${t.name}` }));
      }),
    );
    return lists.flat();
  }

  private async read(uri: string) {
    const client = this.clientFor(uri);
    const server = this.uris.get(uri)!;
    const config = this.manager.connection(server)?.config;
    const trust = {
      ...(config?.trust ? { trust: config.trust } : {}),
      ...(config?.minEffect ? { minEffect: config.minEffect as Effect } : {}),
    };
    const refusal = await this.opts.judge({
      server,
      uri,
      tool: resourceReadName(server),
      effect: effectFromAnnotations({ readOnlyHint: true }, trust),
    });
    if (refusal !== undefined) throw new ToolError('PERMISSION_DENIED', refusal);
    return (await client.readResource({ uri }, TIMEOUT)).contents;
  }

  private clientFor(uri: string): Client {
    const server = this.uris.get(uri);
    const client = server ? this.manager.connection(server)?.remote : undefined;
    if (!client)
      throw new ToolError('NOT_FOUND', `${uri}: its MCP server "${server}" is not connected now; try again later`);
    return client;
  }

  private async watch(uri: string, onChange: () => void): Promise<() => void> {
    const client = this.clientFor(uri);
    let set = this.watchers.get(uri);
    if (!set) {
      set = new Set();
      this.watchers.set(uri, set);
      client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) =>
        this.watchers.get(n.params.uri)?.forEach((f) => f()),
      );
      await client.subscribeResource({ uri }, TIMEOUT);
    }
    set.add(onChange);
    return () => {
      set.delete(onChange);
      if (set.size === 0) {
        this.watchers.delete(uri);
        void client.unsubscribeResource({ uri }).catch(() => {});
      }
    };
  }

  private async listPrompts(): Promise<Prompt[]> {
    const all: Prompt[] = [];
    this.promptNames.clear();
    for (const [server, client] of this.offering('prompts')) {
      const prompts = (await client.listPrompts({}, TIMEOUT).catch(() => undefined))?.prompts ?? [];
      const names = proxyNames(
        server,
        prompts.map((p) => p.name),
      );
      prompts.forEach((p, i) => {
        this.promptNames.set(names[i], [server, p.name]);
        all.push({ ...p, name: names[i] });
      });
    }
    return all;
  }

  private async getPrompt(name: string, args: Record<string, string>): Promise<GetPromptResult> {
    if (!this.promptNames.has(name)) await this.listPrompts();
    const [server, remote] = this.promptNames.get(name) ?? [];
    const client = server ? this.manager.connection(server)?.remote : undefined;
    if (!client || !remote) throw new ToolError('NOT_FOUND', `no prompt named ${name}; list the prompts to see them`);
    return client.getPrompt({ name: remote, arguments: args }, TIMEOUT);
  }
}
