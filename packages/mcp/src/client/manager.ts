// Every configured MCP server at once: connected concurrently, each isolated from the others, and
// their tools kept in the registry as `server__tool` — added, replaced and removed as servers list
// them, restart or give up.
import type { Effect, Tool } from '@toolbelt/core';
import type { McpServerConfig } from '../config.js';
import type { LoggingMessageNotification, Tool as RemoteTool } from '@modelcontextprotocol/sdk/types.js';
import { globMatch, proxyNames } from '../names.js';
import { McpConnection } from './connection.js';
import type { RestartPolicy, ServerStatus } from './status.js';
import type { StdioLauncher } from './transport.js';
import { proxyTool } from './proxy-tool.js';

/** The part of a ToolRegistry the manager writes to. */
export interface RegistryTarget {
  register(tool: Tool, opts?: { replace?: boolean }): unknown;
  unregister(name: string): boolean;
  has(name: string): boolean;
}

export interface McpManagerOptions {
  servers: Record<string, McpServerConfig>;
  registry: RegistryTarget;
  /**
   * Workspace roots. Given, each stdio server starts in the first root, or in its config's `cwd`
   * (relative to the first root), which must lie inside them; without, in this process's cwd.
   */
  roots?: readonly string[];
  /** Overrides each server's connectTimeoutMs when set. */
  connectTimeoutMs?: number;
  restart?: Partial<RestartPolicy>;
  /** Hard limit per proxied call; default 10 min. */
  callTimeoutMs?: number;
  /** Applied to each proxy before it is registered (tool settings); undefined leaves the tool out. */
  adjust?(tool: Tool): Tool | undefined;
  log?(server: string, line: string): void;
  /** A server's log notifications. */
  onLog?(server: string, message: LoggingMessageNotification['params']): void;
  onStatus?(server: string, status: ServerStatus): void;
  /** Makes stdio servers' command lines (the CLI's sandbox). */
  launcher?: StdioLauncher;
  /** Where http servers' OAuth state is kept (`.toolbelt/oauth`); without it no OAuth. */
  oauthDir?: string;
}

interface Registered {
  /** registry name -> the remote definition it was built from, to skip unchanged re-registrations. */
  tools: Map<string, string>;
}

export class McpManager {
  private readonly connections = new Map<string, McpConnection>();
  private readonly registered = new Map<string, Registered>();
  private closed = false;

  constructor(private readonly opts: McpManagerOptions) {
    for (const [name, config] of Object.entries(opts.servers)) {
      this.registered.set(name, { tools: new Map() });
      const connection = new McpConnection({
        name,
        config,
        ...(opts.roots ? { roots: opts.roots } : {}),
        ...(opts.connectTimeoutMs ? { connectTimeoutMs: opts.connectTimeoutMs } : {}),
        ...(opts.restart ? { restart: opts.restart } : {}),
        onTools: (tools) => this.sync(name, tools),
        onStatus: (status) => {
          // Given up for good: its tools go. While it restarts they stay, and calls wait for it.
          if (status.state === 'failed' && status.retryInMs === undefined) this.sync(name, []);
          opts.onStatus?.(name, status);
        },
        log: (line) => opts.log?.(name, line),
        onLog: (message) => opts.onLog?.(name, message),
        ...(opts.launcher ? { launcher: opts.launcher } : {}),
        ...(opts.oauthDir ? { oauthDir: opts.oauthDir } : {}),
      });
      this.connections.set(name, connection);
    }
  }

  /** Connects every server concurrently; resolves once each has connected or failed (never rejects). */
  async start(): Promise<void> {
    await Promise.all([...this.connections.values()].map((c) => c.start()));
  }

  status(): Record<string, ServerStatus> {
    return Object.fromEntries([...this.connections].map(([name, c]) => [name, c.status]));
  }

  /** Every configured server's name. */
  servers(): string[] {
    return [...this.connections.keys()];
  }

  connection(server: string): McpConnection | undefined {
    return this.connections.get(server);
  }

  /** Registry names of a server's tools. */
  toolsOf(server: string): string[] {
    return [...(this.registered.get(server)?.tools.keys() ?? [])];
  }

  /** Restarts one server now, e.g. after it gave up; resolves once it connected or failed. */
  async reconnect(server: string): Promise<void> {
    const connection = this.connections.get(server);
    if (!connection)
      throw new Error(
        `no MCP server named "${server}"; configured: ${[...this.connections.keys()].join(', ') || 'none'}`,
      );
    await connection.reconnect();
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.allSettled([...this.connections.values()].map((c) => c.close()));
  }

  private allowed(config: McpServerConfig, tool: string): boolean {
    if (config.allowedTools && !config.allowedTools.some((p) => globMatch(p, tool))) return false;
    return !config.excludeTools?.some((p) => globMatch(p, tool));
  }

  private sync(server: string, remoteTools: RemoteTool[]): void {
    if (this.closed) return;
    const connection = this.connections.get(server)!;
    const mine = this.registered.get(server)!.tools;
    const wanted = remoteTools.filter((t) => this.allowed(connection.config, t.name));
    const names = proxyNames(
      server,
      wanted.map((t) => t.name),
      (n) => this.opts.registry.has(n) && !mine.has(n),
    );
    const next = new Map<string, string>();
    wanted.forEach((remote, i) => {
      const name = names[i];
      const fingerprint = JSON.stringify(remote);
      if (mine.get(name) === fingerprint) {
        next.set(name, fingerprint);
        return;
      }
      const built = proxyTool({
        name,
        server,
        remote,
        caller: connection,
        trust: {
          ...(connection.config.trust ? { trust: connection.config.trust } : {}),
          ...(connection.config.minEffect ? { minEffect: connection.config.minEffect as Effect } : {}),
        },
        timeoutMs: this.opts.callTimeoutMs ?? 600_000,
      });
      const tool = this.opts.adjust ? this.opts.adjust(built) : built;
      if (!tool) return;
      try {
        this.opts.registry.register(tool, { replace: mine.has(name) });
        next.set(name, fingerprint);
      } catch (err) {
        this.opts.log?.(server, `tool ${remote.name} not registered: ${(err as Error).message}`);
      }
    });
    for (const name of mine.keys()) if (!next.has(name)) this.opts.registry.unregister(name);
    this.registered.set(server, { tools: next });
  }
}
