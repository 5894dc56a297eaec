// Assembles one gateway: store-backed approvals, events, log and declared tools around an executor,
// and the HTTP app in front. The executor is the caller's (toolbelt serve passes its runtime's only
// one, and the gateway joins it as the approver for calls from `http`) or one of its own, built from
// the config by core's appliers as the CLI builds its own (gateway-executor.ts). The config's
// `gateway` section means what gatewaySettingsFrom (config.ts) says.
import { setMaxListeners } from 'node:events';
import { toolSettingsFrom, type Executor, type Policy, type ToolRegistry, type Workspace } from '@toolbelt/core';
import type { McpServerState } from '@toolbelt/protocol';
import type { Hono } from 'hono';
import { buildApp, type AppOptions } from './app.js';
import { gatewaySettingsFrom, type GatewayConfig, type GatewaySettings } from './config.js';
import { registerDeclared, type DeclaredDeps } from './declared/tool.js';
import type { CallInfo } from './declared/pending.js';
import { httpApprover } from './domain/approvals.js';
import { httpElicitor } from './domain/questions.js';
import type { Domain } from './domain/context.js';
import { SessionOwners } from './domain/sessions.js';
import { EventRecorder } from './events/recorder.js';
import { joinExecutor, ownExecutor, recordChanges, type HttpAsker } from './gateway-executor.js';
import { Auth, type AuthEnv, type TokenSpec } from './http/auth.js';
import { hostCheck, Listeners } from './listeners.js';
import { StoreLogSink } from './log-sink.js';
import { HttpCounter, renderMetrics } from './metrics.js';
import type { Listening } from './server.js';
import type { GatewayStore, RecoveryReport } from './store/index.js';
import { Waiters } from './waiters.js';
import { WaitingCalls } from './waiting-calls.js';
import { registerBuiltins, streamVisible } from './spaces/builtins.js';
import { startSweeping } from './sweeper.js';
import { defaultConsoleDir } from './console/static.js';

interface GatewayBaseOptions {
  /** The tools to serve (the executor's registry, when you pass an executor); the config's declared tools are added to it. */
  registry: ToolRegistry;
  store: GatewayStore;
  /**
   * Its `gateway` and `tools` sections; core's toolSettings (for the tools the gateway adds); for an
   * executor of its own, core's limits, structuredText, aliases and log, and mode, rules and hardDeny.
   */
  config?: GatewayConfig;
  /** For token environment variables; default process.env. */
  env?: Record<string, string | undefined>;
  /** Host names accepted besides localhost, 127.0.0.1, [::1], the bound address and gateway.allowedHosts. */
  allowedHosts?: string[];
  /** Used by declared tools with an execution URL. */
  fetch?: typeof fetch;
  heartbeatMs?: number;
  /** How often open calls are checked for expiry and old events pruned. Default 30 s. */
  sweepIntervalMs?: number;
  /** Events older than this are pruned. Default 7 days. */
  eventRetentionMs?: number;
  /** The built web console served at `/`; default: this package's dist/console-assets, when built. `false`: none. */
  consoleDir?: string | false;
  /** The MCP servers and their connection states, for the console's catalog. */
  mcpServers?: () => McpServerState[];
}

/** The gateway builds its executor, which asks every call's approval over HTTP. */
interface OwnExecutorOptions {
  /**
   * Default: one from the config's mode, rules and hardDeny, keeping "always" approvals in the store.
   * Your own (then leave those keys out of the config): build it with policyWithStore() to keep them.
   */
  policy?: Policy;
  workspace?: Workspace;
  executor?: undefined;
}

/**
 * The gateway serves through an executor built elsewhere: it becomes the approver for calls from
 * `http`, adds its store to the executor's log sinks and records the executor's events. Give the
 * executor's policy a store (storeDecisions) to keep "always" approvals in the gateway database.
 */
interface SharedExecutorOptions {
  executor: Executor;
  policy?: undefined;
  workspace?: undefined;
}

export type GatewayOptions = GatewayBaseOptions & (OwnExecutorOptions | SharedExecutorOptions);

export interface Gateway {
  readonly app: Hono<AuthEnv>;
  readonly executor: Executor;
  readonly store: GatewayStore;
  readonly recorder: EventRecorder;
  readonly auth: Auth;
  /** What the start found left over from a previous process. */
  readonly recovery: RecoveryReport;
  /** The web console's directory served at `/`, when there is one. */
  readonly consoleDir: string | undefined;
  fetch(req: Request): Response | Promise<Response>;
  /** Listens on host:port (default 127.0.0.1:7077; port 0 picks a free one). */
  listen(opts?: { host?: string; port?: number }): Promise<Listening>;
  /** Expires overdue calls and prunes old events now (also done on a timer). */
  sweep(): Promise<void>;
  /** Ends streams and calls in flight, writes what is buffered. The store stays open. */
  close(): Promise<void>;
}

/** What the gateway is made of before its executor and HTTP app: store-backed state and its own tools. */
interface Core {
  settings: GatewaySettings;
  recovery: RecoveryReport;
  recorder: EventRecorder;
  waiters: Waiters;
  inflight: Map<string, CallInfo>;
  waiting: WaitingCalls;
  declared: AppOptions['declared'];
}

async function startCore(o: GatewayOptions): Promise<Core> {
  const config = o.config ?? {};
  const settings = gatewaySettingsFrom(config.gateway);
  const { store } = o;
  const recovery = await store.recover(Date.now());
  const recorder = await EventRecorder.start(store);
  const waiters = new Waiters(store);
  const [inflight, waiting] = [new Map<string, CallInfo>(), new WaitingCalls()];
  const deps: DeclaredDeps = {
    store,
    waiters,
    recorder,
    callInfo: (id: string) => inflight.get(id),
    pendingTtlMs: settings.pendingTtlMs,
    waiting,
    ...(o.fetch ? { fetch: o.fetch } : {}),
  };
  // The config's toolSettings reach the tools the gateway adds as they reach the CLI's.
  const adjust = toolSettingsFrom(config.toolSettings);
  registerBuiltins(o.registry, deps, adjust);
  const declared = registerDeclared(o.registry, config.tools ?? [], deps, adjust);
  return { settings, recovery, recorder, waiters, inflight, waiting, declared };
}

/** The caller's executor, joined, or one of the gateway's own; `leave` undoes the joining. */
function executorOf(o: GatewayOptions, c: Core, log: StoreLogSink): { executor: Executor; leave: () => void } {
  const asker: HttpAsker = {
    approver: httpApprover(o.store, c.waiters, c.recorder),
    elicitor: httpElicitor(o.store, c.waiters, c.recorder),
  };
  if (o.executor) return { executor: o.executor, leave: joinExecutor(o.executor, asker, log) };
  const own = {
    registry: o.registry,
    store: o.store,
    config: o.config ?? {},
    policy: o.policy,
    workspace: o.workspace,
  };
  return { executor: ownExecutor(own, asker, log), leave: () => {} };
}

export async function createGateway(o: GatewayOptions): Promise<Gateway> {
  if (o.executor && o.executor.registry !== o.registry)
    throw new Error("createGateway: pass the executor's own registry as `registry`; declared tools are added to it");
  const c = await startCore(o);
  const auth = new Auth(c.settings.tokens as TokenSpec[], o.env ?? process.env);
  const hosts = hostCheck(c.settings, o.allowedHosts);
  const log = new StoreLogSink(o.store);
  const { executor, leave } = executorOf(o, c, log);
  const shutdown = new AbortController();
  // Every open event stream listens for shutdown.
  setMaxListeners(Infinity, shutdown.signal);
  const domain = domainOf(o, c, executor, shutdown.signal);
  const stopRecording = recordChanges(executor, o.registry, c.recorder);
  const stopStreaming = streamVisible(executor, domain);
  const app = httpApp(domain, o, { auth, hosts, declared: c.declared, waiters: c.waiters, log, settings: c.settings });
  const { sweep, timer } = startSweeping(o.store, c.recorder, o);
  const listeners = new Listeners(app, hosts, auth, c.settings);
  return {
    app,
    executor,
    store: o.store,
    recorder: c.recorder,
    auth,
    recovery: c.recovery,
    consoleDir: consoleDirOf(o),
    sweep,
    fetch: (req) => app.fetch(req),
    listen: (opts) => listeners.listen(opts),
    async close() {
      clearInterval(timer);
      stopRecording();
      stopStreaming();
      leave();
      shutdown.abort();
      c.waiters.close();
      await c.waiting.close(5000);
      await listeners.closeAll();
      await c.recorder.flush();
      c.recorder.close();
      await log.flush();
    },
  };
}

/** What the domain functions share. */
function domainOf(o: GatewayOptions, c: Core, executor: Executor, shutdown: AbortSignal): Domain {
  return {
    store: o.store,
    executor,
    registry: o.registry,
    recorder: c.recorder,
    inflight: c.inflight,
    waiting: c.waiting,
    shutdown,
    waiters: c.waiters,
    visible: new Map(),
    sessions: new SessionOwners(o.store),
    cycleLeaseMs: c.settings.cycleLeaseMs,
  };
}

/** The console's directory: the caller's, none (`false`), or the one built into this package. */
function consoleDirOf(o: GatewayBaseOptions): string | undefined {
  return o.consoleDir === false ? undefined : (o.consoleDir ?? defaultConsoleDir());
}

/** The HTTP app in front of the domain, counting its requests for the metrics it serves. */
function httpApp(
  domain: Domain,
  o: GatewayBaseOptions,
  { waiters, log, settings, ...front }: HttpAppParts,
): Hono<AuthEnv> {
  const http = new HttpCounter();
  return buildApp(domain, {
    ...front,
    maxBodyBytes: settings.maxBodyBytes,
    http,
    metrics: metricsText(domain, { http, waiters, log }),
    consoleDir: consoleDirOf(o),
    ...(o.mcpServers ? { mcpServers: o.mcpServers } : {}),
    ...(o.heartbeatMs ? { heartbeatMs: o.heartbeatMs } : {}),
  });
}

type HttpAppParts = Pick<AppOptions, 'auth' | 'hosts' | 'declared'> & {
  waiters: Waiters;
  log: StoreLogSink;
  settings: GatewaySettings;
};

function metricsText(
  d: Domain,
  more: { http: HttpCounter; waiters: Waiters; log: StoreLogSink },
): () => Promise<string> {
  return async () =>
    renderMetrics({
      tools: d.executor.metrics.snapshot(),
      callsByStatus: await d.store.countCallsByStatus(),
      http: more.http.counts,
      sseClients: d.recorder.subscriberCount,
      waiters: more.waiters.size,
      storeFailures: d.recorder.failures + more.log.failures,
    });
}
