// How to reach one configured server: a child process over stdio (clean environment, stderr piped,
// optional rlimits), or a URL over Streamable HTTP with the older SSE transport as a fallback.
import { retryingFetch } from '@toolbelt/core/net';
import type { McpServerConfig } from '../config.js';
import { withDeadline } from './requests.js';
import type { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';

// Transports are imported when a server needs them: a CLI run without MCP servers loads none.

export type TransportKind = 'stdio' | 'http' | 'sse';

/** Which transport a config asks for, or a sentence saying what is missing. */
export function transportKind(cfg: McpServerConfig): TransportKind | { problem: string } {
  if (cfg.transport === 'stdio' || (!cfg.transport && cfg.command)) {
    return cfg.command ? 'stdio' : { problem: 'transport "stdio" needs a "command"' };
  }
  if (cfg.transport === 'http' || cfg.transport === 'sse' || (!cfg.transport && cfg.url)) {
    return cfg.url ? (cfg.transport ?? 'http') : { problem: `transport "${cfg.transport}" needs a "url"` };
  }
  return { problem: 'give either "command" (a stdio server) or "url" (an HTTP server)' };
}

/**
 * The command line that applies the config's resource limits before exec'ing the server. Linux
 * only (rlimits via the shell's ulimit, as a pre_exec hook would); elsewhere the command as is.
 */
export function limitedCommand(
  cfg: McpServerConfig,
  platform: NodeJS.Platform = process.platform,
): { command: string; args: string[] } {
  const command = cfg.command!;
  const args = cfg.args ?? [];
  const l = cfg.limits;
  if (!l || platform !== 'linux') return { command, args };
  const steps: string[] = [];
  if (l.cpuSeconds) steps.push(`ulimit -t ${l.cpuSeconds}`);
  if (l.memoryMb) steps.push(`ulimit -v ${l.memoryMb * 1024}`);
  if (l.dataMb) steps.push(`ulimit -d ${l.dataMb * 1024}`);
  if (l.openFiles) steps.push(`ulimit -n ${l.openFiles}`);
  if (!steps.length) return { command, args };
  // A missing program is said once, plainly, not as the shell's "toolbelt-mcp: exec: …: not found".
  steps.push(
    `{ command -v "$1" >/dev/null || { echo "toolbelt: the command \\"$1\\" was not found" >&2; exit 127; }; }`,
  );
  return { command: '/bin/sh', args: ['-c', `${steps.join(' && ')} && exec "$@"`, 'toolbelt-mcp', command, ...args] };
}

/** A stdio server's command line as the embedder made it. */
export interface StdioLaunch {
  command: string;
  args: string[];
  /** Over the config's env (a package runner's cache, say). */
  env?: Record<string, string>;
  /** Said with a failed start: what confines the server and which key to change. */
  hint?: string;
}

/**
 * How a stdio server's command line is made when the embedder confines servers (the CLI runs them
 * in its sandbox); without one, limitedCommand. May throw to refuse starting the server. It may
 * take time of its own (fetching a package first): the connect timeout starts after it.
 */
export type StdioLauncher = (server: string, cfg: McpServerConfig) => Promise<StdioLaunch>;

/** A launcher may download the server first (npx): time enough for a cold npm cache. */
const LAUNCH_TIMEOUT_MS = 180_000;

/** The embedder's command line for a stdio server, under a deadline of its own; none without a launcher. */
export async function launchStdio(
  launcher: StdioLauncher | undefined,
  server: string,
  cfg: McpServerConfig,
): Promise<StdioLaunch | undefined> {
  if (!launcher) return undefined;
  return withDeadline(
    launcher(server, cfg),
    LAUNCH_TIMEOUT_MS,
    'its command line (a package runner fetching the server) was not ready within',
  );
}

export async function stdioTransport(cfg: McpServerConfig, launched?: StdioLaunch): Promise<StdioClientTransport> {
  const { StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js');
  const { command, args, env }: StdioLaunch = launched ?? limitedCommand(cfg);
  // The SDK adds only HOME, LOGNAME, PATH, SHELL, TERM and USER to what the config passes.
  const vars = { ...cfg.env, ...env };
  return new StdioClientTransport({ command, args, env: vars, stderr: 'pipe', ...(cfg.cwd ? { cwd: cfg.cwd } : {}) });
}

export async function httpTransport(
  cfg: McpServerConfig,
  kind: 'http' | 'sse',
  authProvider?: OAuthClientProvider,
): Promise<Transport> {
  const url = new URL(cfg.url!);
  // A request that failed for a passing reason (a reset, 408, 429, 5xx) is sent again (cfg.retry).
  // Global fetch is looked up per request, as the SDK itself does.
  const opts = {
    fetch: retryingFetch((input, init) => fetch(input, init), cfg.retry),
    ...(cfg.headers ? { requestInit: { headers: cfg.headers } } : {}),
    ...(authProvider ? { authProvider } : {}),
  };
  if (kind === 'sse') {
    const { SSEClientTransport } = await import('@modelcontextprotocol/sdk/client/sse.js');
    // The SSE transport sends requestInit's headers on its EventSource GET as well as on each POST.
    return new SSEClientTransport(url, opts);
  }
  const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
  return new StreamableHTTPClientTransport(url, opts);
}

/** True when a Streamable HTTP failure means "this server only speaks the older SSE transport". */
export function shouldFallBackToSse(err: unknown): boolean {
  const code = (err as { code?: unknown })?.code;
  return typeof code === 'number' && code >= 400 && code < 500 && code !== 401 && code !== 403;
}
