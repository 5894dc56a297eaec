// `toolbelt mcp`: the built-in tools and every configured MCP server, served as one MCP server
// behind one policy — over stdio for an MCP client's config, or over Streamable HTTP.
import { join } from 'node:path';
import { UnknownGroupError } from '@toolbelt/core';
import { BindRefusedError, HostConfigError } from '@toolbelt/core/net';
import {
  describeStatus,
  serveHttp,
  serveStdio,
  ToolServer,
  type McpManager,
  type McpProviderOptions,
} from '@toolbelt/mcp';
import { COMMON_OPTIONS, EXIT, UsageError, type Command, type Io } from '../command.js';
import { mcpContent } from '../mcp-resources.js';
import { mcpLogin } from './mcp-login.js';
import { defaultProviders } from '../providers.js';
import { createRuntime, type Runtime } from '../runtime.js';
import { untilStopSignal } from '../signals.js';

const USAGE = `Usage: toolbelt mcp [options]
       toolbelt mcp login SERVER [--no-browser] [--port PORT]

Serves the built-in tools plus every server in the config's "mcpServers" as one MCP server, all
behind one policy. Speaks stdio by default (put it in an MCP client's config); --http serves
Streamable HTTP instead. Calls that need approval are asked through elicitation when the client
supports it; otherwise they return an error that says how to allow them.

  --root DIR        workspace root (repeat for several; default: current directory)
  --config FILE     config file (default: <root>/toolbelt.config.json)
  --mode M          ask | safe | auto-edit | yolo (default: config, else safe)
  --groups LIST     start each client with only these tool groups (comma-separated, e.g.
                    files,search) plus load_tools, which loads the others when needed
  --http PORT       serve Streamable HTTP at http://127.0.0.1:PORT/mcp (0 picks a free port)
  --host HOST       address to bind with --http (default 127.0.0.1); any other than loopback
                    needs --token-env
  --allow-host NAME another Host name to accept with --http (repeat), e.g. behind a proxy
  --token-env VAR   with --http, require "Authorization: Bearer <value of VAR>"
  --status          connect to the configured MCP servers, print their status, and exit

login SERVER signs in to an http server of "mcpServers" that uses OAuth: it opens the
authorization page in a browser (--no-browser only prints its address) and waits for it
to come back to 127.0.0.1 (--port: the port a pre-registered client was registered with).
Tokens are kept in <root>/.toolbelt/oauth/SERVER.json, readable by you alone.`;

function parsePort(raw: unknown): number {
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new UsageError(`--http must be a port number from 0 to 65535, not "${String(raw)}"`);
  return port;
}

function tokenFrom(name: unknown): string | undefined {
  if (name === undefined) return undefined;
  const value = process.env[String(name)];
  if (!value) throw new UsageError(`--token-env ${String(name)}: that environment variable is empty or unset`);
  if (value.length < 16) throw new UsageError(`--token-env ${String(name)}: the token must be at least 16 characters`);
  return value;
}

function groupsOption(raw: unknown): { groups?: string[] } {
  if (raw === undefined) return {};
  const groups = String(raw)
    .split(',')
    .map((g) => g.trim())
    .filter(Boolean);
  if (groups.length === 0) throw new UsageError('--groups needs at least one group name, e.g. --groups files,search');
  return { groups };
}

async function printStatus(rt: Runtime, manager: McpManager | undefined, io: Io): Promise<number> {
  const status = manager?.status() ?? {};
  const names = Object.keys(status);
  if (names.length === 0) {
    io.stdout.write(
      `No MCP servers configured${rt.configPath ? ` in ${rt.configPath}` : ''}. Add them under "mcpServers".\n`,
    );
    return EXIT.ok;
  }
  const width = Math.max(...names.map((n) => n.length));
  let failed = 0;
  for (const name of names) {
    const s = status[name];
    if (s.state === 'failed') failed++;
    const tools = manager!.toolsOf(name);
    io.stdout.write(
      `${name.padEnd(width)}  ${describeStatus(s)}${tools.length ? `\n${' '.repeat(width + 2)}${tools.join(', ')}` : ''}\n`,
    );
  }
  // The status lines already say why; the warning that would repeat it is off for --status.
  if (failed) io.stdout.write(`Details in ${join(rt.stateDir, 'mcp.log')}.\n`);
  return failed ? EXIT.toolError : EXIT.ok;
}

/** `toolbelt mcp login SERVER`; undefined when no subcommand is given. */
function loginCommand(values: Record<string, unknown>, positionals: string[], io: Io): Promise<number> | undefined {
  const [sub, ...rest] = positionals;
  if (sub === undefined) return undefined;
  if (sub !== 'login') throw new UsageError(`unknown subcommand "${sub}"; the only one is login SERVER`);
  if (rest.length > 1) throw new UsageError(`unexpected arguments: ${rest.slice(1).join(' ')}`);
  return mcpLogin(values, rest[0], io);
}

interface HttpFlags {
  values: Record<string, unknown>;
  port: number;
  token: string | undefined;
}

/** `--http PORT`: serves until a stop signal; a port that cannot be had is a usage error that says why. */
async function serveOverHttp(
  server: ToolServer,
  rt: Runtime,
  { values, port, token }: HttpFlags,
  io: Io,
): Promise<void> {
  const handle = await serveHttp(server, {
    port,
    ...(values.host ? { host: String(values.host) } : {}),
    ...(values['allow-host'] ? { allowedHosts: values['allow-host'] as string[] } : {}),
    ...(token ? { token } : {}),
  }).catch((err: NodeJS.ErrnoException) => {
    if (err instanceof BindRefusedError || err instanceof HostConfigError) throw new UsageError(err.message);
    if (err.code === 'EADDRINUSE')
      throw new UsageError(
        `port ${port} is already in use; pick another with --http PORT, or --http 0 for any free port`,
      );
    if (err.code === 'EACCES' || err.code === 'EADDRNOTAVAIL')
      throw new UsageError(`cannot listen on ${values.host ?? '127.0.0.1'}:${port} (${err.code})`);
    throw err;
  });
  // Listen for signals before printing the address: whoever reads it may stop us at once.
  const stopped = untilStopSignal();
  io.stderr.write(
    `toolbelt mcp: ${rt.registry.list().length} tools at ${handle.url}${token ? ' (bearer token required)' : ''}; Ctrl-C stops.\n`,
  );
  await stopped;
  await handle.close();
}

export const mcpCommand: Command = {
  name: 'mcp',
  usage: USAGE,
  options: {
    ...COMMON_OPTIONS,
    http: { type: 'string' },
    host: { type: 'string' },
    'allow-host': { type: 'string', multiple: true },
    'token-env': { type: 'string' },
    status: { type: 'boolean' },
    groups: { type: 'string' },
    'no-browser': { type: 'boolean' },
    port: { type: 'string' },
  },
  positionals: true,
  async run(values, positionals, io) {
    const login = loginCommand(values, positionals, io);
    if (login) return login;
    if (values['no-browser'] || values.port)
      throw new UsageError('--no-browser and --port only apply to toolbelt mcp login');
    const port = values.http === undefined ? undefined : parsePort(values.http);
    if (port === undefined && (values.host || values['token-env'] || values['allow-host'])) {
      throw new UsageError('--host, --allow-host and --token-env only apply with --http PORT');
    }
    const token = tokenFrom(values['token-env']);
    const groups = groupsOption(values.groups);
    let manager: McpManager | undefined;
    let server: ToolServer | undefined;
    // Never stdout for warnings: in stdio mode it carries the protocol. Clients also get them as log notifications.
    const warn = (line: string) => {
      io.stderr.write(`${line}\n`);
      server?.log('warning', line, 'toolbelt');
    };
    const onLog: McpProviderOptions['onLog'] = (name, message) =>
      server?.log(message.level, message.data, message.logger ? `${name}/${message.logger}` : name);
    // --status prints every server's status, failures included: no warning repeats them.
    const mcp = { warn, onLog, onManager: (m: McpManager) => (manager = m), warnUnavailable: !values.status };
    const rt = await createRuntime(values, { warn, providers: defaultProviders({ mcp }) });
    if (values.status) {
      try {
        return await printStatus(rt, manager, io);
      } finally {
        await rt.close();
      }
    }
    try {
      server = new ToolServer({ executor: rt.executor, ...groups, ...mcpContent(rt, manager) });
    } catch (err) {
      await rt.close();
      if (err instanceof UnknownGroupError) throw new UsageError(`--groups: ${err.message}`);
      throw err;
    }
    try {
      if (port === undefined) await Promise.race([serveStdio(server, io.stdin, io.stdout), untilStopSignal()]);
      else await serveOverHttp(server, rt, { values, port, token }, io);
      return EXIT.ok;
    } finally {
      await server.close();
      await rt.close();
    }
  },
};
