// MCP servers from toolbelt.config.json as a tool provider for a runtime: their tools join the
// runtime's registry (and leave it) as servers connect, change, restart or give up.
import { createWriteStream, mkdirSync, type WriteStream } from 'node:fs';
import { join } from 'node:path';
import type { Tool } from '@toolbelt/core';
import type { LoggingMessageNotification } from '@modelcontextprotocol/sdk/types.js';
import type { McpConfig } from './config.js';
import { McpManager, type RegistryTarget } from './client/manager.js';
import type { ServerStatus } from './client/status.js';
import type { StdioLauncher } from './client/transport.js';

export interface McpProviderOptions {
  /** Where to say that a server is unavailable; default process.stderr. Never stdout: it may carry MCP. */
  warn?: (line: string) => void;
  /** Warn about servers that failed to start; false when the caller prints every server's status itself (`toolbelt mcp --status`). Default true. */
  warnUnavailable?: boolean;
  connectTimeoutMs?: number;
  /** A server's log notifications (also written to mcp.log). */
  onLog?: (server: string, message: LoggingMessageNotification['params']) => void;
  /** Called with the manager once it exists (status, reconnects). */
  onManager?: (manager: McpManager) => void;
}

interface ProviderRuntime {
  config: McpConfig;
  registry: RegistryTarget;
  stateDir: string;
  /** Its roots are where stdio servers start (see McpManagerOptions.roots). */
  workspace: { readonly roots: readonly string[] };
  /** Starts stdio servers confined (the CLI's sandbox). */
  launchStdio?: StdioLauncher;
  /** The runtime's toolSettings for one tool (undefined: disabled), applied to proxied tools like to any other. */
  applyToolSettings?(tool: Tool): Tool | undefined;
}

export function describeStatus(status: ServerStatus): string {
  switch (status.state) {
    case 'disabled':
      return 'disabled';
    case 'connecting':
      return `connecting (attempt ${status.attempt})`;
    case 'connected':
      return `connected over ${status.transport}, ${status.tools} tool${status.tools === 1 ? '' : 's'}${status.pid ? `, pid ${status.pid}` : ''}`;
    case 'failed':
      return `failed: ${status.reason}${status.retryInMs !== undefined ? ` (retrying in ${status.retryInMs} ms)` : ''}`;
  }
}

export function mcpProvider(opts: McpProviderOptions = {}) {
  return async (rt: ProviderRuntime): Promise<{ tools: Tool[]; close: () => Promise<void> }> => {
    const servers = rt.config.mcpServers ?? {};
    let logFile: WriteStream | undefined;
    const log = (server: string, line: string) => {
      if (!logFile) {
        mkdirSync(rt.stateDir, { recursive: true });
        logFile = createWriteStream(join(rt.stateDir, 'mcp.log'), { flags: 'a' });
        logFile.on('error', () => {});
      }
      logFile.write(`${new Date().toISOString()} [${server}] ${line}\n`);
    };
    const manager = new McpManager({
      servers,
      registry: rt.registry,
      roots: rt.workspace.roots,
      ...(rt.applyToolSettings ? { adjust: (tool: Tool) => rt.applyToolSettings!(tool) } : {}),
      log,
      oauthDir: join(rt.stateDir, 'oauth'),
      onLog: (server, message) => {
        log(
          server,
          `log ${message.level}${message.logger ? ` ${message.logger}` : ''}: ${typeof message.data === 'string' ? message.data : JSON.stringify(message.data)}`,
        );
        opts.onLog?.(server, message);
      },
      ...(rt.launchStdio ? { launcher: rt.launchStdio } : {}),
      ...(opts.connectTimeoutMs ? { connectTimeoutMs: opts.connectTimeoutMs } : {}),
    });
    opts.onManager?.(manager);
    await manager.start();
    const warn = opts.warn ?? ((line: string) => process.stderr.write(`${line}\n`));
    for (const [name, status] of Object.entries(manager.status())) {
      if (status.state === 'failed' && opts.warnUnavailable !== false)
        warn(
          `toolbelt: MCP server "${name}" is unavailable: ${status.reason}. Details in ${join(rt.stateDir, 'mcp.log')}.`,
        );
    }
    return {
      tools: [],
      async close() {
        await manager.close();
        await new Promise<void>((resolve) => (logFile ? logFile.end(resolve) : resolve()));
      },
    };
  };
}
