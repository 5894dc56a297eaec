// `toolbelt serve`: the HTTP gateway over this workspace's tools, until SIGINT, SIGTERM or SIGHUP.
// The gateway serves through the runtime's only executor: its database keeps the policy's "always"
// approvals and the execution log, and it approves the calls that come over HTTP.
import { existsSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import {
  AuthConfigError,
  BindRefusedError,
  createGateway,
  openProblem,
  DeclaredToolError,
  DEFAULT_HOST,
  DEFAULT_PORT,
  gatewaySettingsFrom,
  HostConfigError,
  storeDecisions,
  StoreVersionError,
  TOKEN_ENV,
  type GatewayStore,
  type Listening,
} from '@toolbelt/gateway';
import type { McpManager } from '@toolbelt/mcp';
import type { McpServerState } from '@toolbelt/protocol';
import { describeDb, isPostgresUrl, openGatewayDb } from '../gateway-db.js';
import { COMMON_OPTIONS, EXIT, UsageError, type Command } from '../command.js';
import type { ToolbeltConfig } from '../config/schema.js';
import { defaultProviders } from '../providers.js';
import { createRuntime, type RuntimePlan } from '../runtime.js';
import { legacyGatewayDb } from '../state-paths.js';
import { untilStopSignal } from '../signals.js';

const USAGE = `Usage: toolbelt serve [--root DIR] [--config FILE] [--host H] [--port P] [--db FILE|URL] [--mode M]

  --root DIR     workspace root (repeat for several; default: current directory)
  --config FILE  config file (default: <root>/toolbelt.config.json)
  --host H       address to listen on (default: gateway.host, else ${DEFAULT_HOST}); any
                 other than loopback needs tokens (gateway.tokens or TOOLBELT_GATEWAY_TOKEN)
  --port P       port (default: gateway.port, else ${DEFAULT_PORT}; 0 picks a free one)
  --db FILE|URL  gateway database (default: TOOLBELT_DB, else gateway.db, else outside the
                 workspace in $XDG_STATE_HOME/toolbelt/<root name>-<hash>/gateway.db, or
                 ~/.local/state/...); postgres://user@host:5432/db[?schema=S] lets several
                 instances share one database
  --mode M       ask | safe | auto-edit | yolo (default: config, else safe)

Requests must be addressed to localhost, 127.0.0.1, [::1], the --host address or a name in
gateway.allowedHosts (against DNS rebinding). toolbelt token new makes a token and the config
entry that holds only its hash.

Stops on SIGINT, SIGTERM or SIGHUP. The API is described at /api/openapi.json.`;

function parsePort(raw: unknown, fallback: number): number {
  if (raw === undefined) return fallback;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new UsageError(`--port must be an integer from 0 to 65535, not "${String(raw)}"`);
  return port;
}

/**
 * Once the gateway holds the tokens' digests, the plain tokens are dropped: from the config object
 * (tools and providers see it) and from this process's environment (child processes inherit it).
 */
function forgetPlainTokens(config: ToolbeltConfig): void {
  for (const t of config.gateway?.tokens ?? []) {
    delete t.token;
    if (t.tokenEnv) delete process.env[t.tokenEnv];
  }
  delete process.env[TOKEN_ENV];
}

/**
 * The database used to sit in <root>/.toolbelt, where agents' shell commands can reach it. Asked
 * before the new one is opened (opening creates it).
 */
function legacyDbNote(root: string, dbFile: string, explicit: boolean): string | undefined {
  const legacy = legacyGatewayDb(root);
  if (explicit || !existsSync(legacy) || existsSync(dbFile)) return undefined;
  return `note: ${legacy} is from an older toolbelt and is no longer used; to keep its calls and approvals,\nstop this gateway and move it: mv ${legacy} ${dbFile} (or set gateway.db)\n`;
}

interface OpenedStore {
  store: GatewayStore;
  /** Said once the gateway is up: an older database inside the workspace is no longer used. */
  legacyNote: string | undefined;
}

/** Opens the gateway database where the runtime's plan puts it; a failure is a usage error. */
async function openStore(plan: RuntimePlan, dbFlag: unknown): Promise<OpenedStore> {
  const dbFile = plan.gatewayDb;
  const explicit = dbFlag !== undefined || plan.env.TOOLBELT_DB || plan.config.gateway?.db !== undefined;
  const legacyNote = isPostgresUrl(dbFile) ? undefined : legacyDbNote(plan.roots[0], dbFile, !!explicit);
  try {
    // Only this user may enter the state directories it creates: they hold every agent's calls.
    if (!explicit) mkdirSync(dirname(dbFile), { recursive: true, mode: 0o700 });
    return { store: await openGatewayDb(dbFile), legacyNote };
  } catch (err) {
    if (err instanceof StoreVersionError || (err as Error).name === 'StoreOpenError')
      throw new UsageError((err as Error).message);
    throw new UsageError(`cannot open the gateway database ${describeDb(dbFile)}: ${errorText(err)}`);
  }
}

/** The MCP servers' connection states, for the console's catalog. */
function mcpStates(manager: McpManager | undefined): McpServerState[] {
  return Object.entries(manager?.status() ?? {}).map(([name, s]) => ({
    name,
    state: s.state,
    ...(s.state === 'connected' ? { tools: s.tools } : {}),
    ...(s.state === 'failed' ? { reason: s.reason } : {}),
  }));
}

/** pg reports an unreachable server as an AggregateError with an empty message. */
function errorText(err: unknown): string {
  const e = err as Error & { errors?: Error[]; code?: string };
  return e.message || e.errors?.map((x) => x.message).join('; ') || e.code || String(err);
}

function usageErrorOf(err: unknown, port: unknown, db: string): unknown {
  const e = err as NodeJS.ErrnoException;
  if (
    err instanceof BindRefusedError ||
    err instanceof AuthConfigError ||
    err instanceof HostConfigError ||
    err instanceof DeclaredToolError ||
    err instanceof UsageError
  )
    return new UsageError(e.message);
  if (e.code === 'EADDRINUSE')
    return new UsageError(`port ${String(port)} is already in use; pick another with --port (0 picks a free one)`);
  // The database opened but its first writes failed (locked by another process, read-only, full).
  if (e.name === 'SqliteError' || e.name === 'StoreUnavailableError')
    return new UsageError(openProblem(db, err).message);
  return err;
}

export const serveCommand: Command = {
  name: 'serve',
  usage: USAGE,
  options: { ...COMMON_OPTIONS, host: { type: 'string' }, port: { type: 'string' }, db: { type: 'string' } },
  async run(values, _pos, io) {
    let opened: OpenedStore | undefined;
    let mcp: McpManager | undefined;
    const rt = await createRuntime(values, {
      providers: defaultProviders({ mcp: { onManager: (m) => (mcp = m) } }),
      stores: async (plan) => {
        opened = await openStore(plan, values.db);
        const store = opened.store;
        // The policy's "always" approvals and the execution log live in the gateway database.
        return { decisions: storeDecisions(store), keepsLog: true, close: () => store.close() };
      },
    });
    const { store, legacyNote } = opened!;
    const gw = gatewaySettingsFrom(rt.config.gateway);
    if (legacyNote) io.stdout.write(legacyNote);
    let listening: Listening | undefined;
    let gateway;
    try {
      gateway = await createGateway({
        executor: rt.executor,
        registry: rt.registry,
        store,
        config: rt.config,
        env: rt.env,
        mcpServers: () => mcpStates(mcp),
      });
      forgetPlainTokens(rt.config);
      listening = await gateway.listen({
        host: (values.host as string | undefined) ?? gw.host,
        port: parsePort(values.port, gw.port),
      });
    } catch (err) {
      await gateway?.close();
      await rt.close();
      throw usageErrorOf(err, values.port ?? gw.port, describeDb(rt.gatewayDb));
    }
    // Listen for signals before saying we listen: whoever reads the banner may stop us at once.
    const stopped = untilStopSignal();
    const auth = gateway.auth.enabled
      ? `${gateway.auth.count} token${gateway.auth.count === 1 ? '' : 's'} required`
      : 'no tokens: open to clients on this machine only';
    const declared = (rt.config.tools ?? []).length;
    io.stdout.write(`toolbelt gateway listening on ${listening.url}\n`);
    io.stdout.write(
      `  tools: ${rt.registry.list().length}${declared ? ` (${declared} declared)` : ''} · auth: ${auth} · db: ${describeDb(rt.gatewayDb)}\n`,
    );
    io.stdout.write(gateway.consoleDir ? `  console: ${listening.url}/\n` : '  console: not built (npm run build)\n');
    const { reopened, interrupted } = gateway.recovery;
    if (reopened || interrupted) {
      io.stdout.write(
        `  after the last stop: ${reopened} waiting call(s) now deliver to the inbox, ${interrupted} interrupted call(s) marked as errors\n`,
      );
    }
    const signal = await stopped;
    io.stdout.write(`${signal}: stopping\n`);
    // The gateway first (it ends its calls and writes its log), then the executor, then the store.
    await gateway.close();
    await rt.close();
    return EXIT.ok;
  },
};
