// Assembles one gateway: store-backed approvals, events, log and declared tools around an executor,
// and the HTTP app in front. The executor is the caller's (toolbelt serve passes its runtime's only
// one, and the gateway joins it as the approver for calls from `http`) or one of its own.
import { setMaxListeners } from 'node:events';
import {
  Executor,
  HostCheck,
  type Approver,
  type Elicitor,
  type McpServerState,
  type Policy,
  type ToolRegistry,
  type Workspace,
} from '@toolbelt/core';
import type { Hono } from 'hono';
import { buildApp, type AppOptions } from './app.js';
import type { GatewayConfig, GatewaySection } from './config.js';
import { registerDeclared } from './declared/tool.js';
import type { CallInfo } from './declared/pending.js';
import { httpApprover } from './domain/approvals.js';
import { httpElicitor } from './domain/questions.js';
import type { Domain } from './domain/context.js';
import { SessionOwners } from './domain/sessions.js';
import { EventRecorder } from './events/recorder.js';
import { Auth, type AuthEnv, type TokenSpec } from './http/auth.js';
import { StoreLogSink } from './log-sink.js';
import { HttpCounter, renderMetrics } from './metrics.js';
import { assertSafeBind, DEFAULT_HOST, DEFAULT_PORT, listen, type Listening } from './server.js';
import type { GatewayStore, RecoveryReport } from './store/types.js';
import { Waiters } from './waiters.js';
import { WaitingCalls } from './waiting-calls.js';
import { DEFAULT_CYCLE_LEASE_MS } from './store/sqlite-statements.js';
import { registerBuiltins, streamVisible } from './spaces/builtins.js';
import { publishSettled } from './spaces/publish.js';
import { defaultConsoleDir } from './console/static.js';

interface GatewayBaseOptions {
  /** The tools to serve (the executor's registry, when you pass an executor); the config's declared tools are added to it. */
  registry: ToolRegistry;
  store: GatewayStore;
  /** Its `gateway` and `tools` sections, and the executor's `limits`. */
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
  /** Build it with policyWithStore() so "always" approvals are kept in the store. */
  policy: Policy;
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

/** Expiry and retention on a timer (unref'd: it never keeps the process alive). */
function startSweeping(store: GatewayStore, recorder: EventRecorder, o: GatewayOptions) {
  const sweep = sweeper(store, recorder, o.eventRetentionMs ?? 7 * 24 * 3600_000);
  const timer = setInterval(() => void sweep().catch(() => recorder.failures++), o.sweepIntervalMs ?? 30_000);
  timer.unref();
  return { sweep, timer };
}

export async function createGateway(o: GatewayOptions): Promise<Gateway> {
  if (o.executor && o.executor.registry !== o.registry)
    throw new Error("createGateway: pass the executor's own registry as `registry`; declared tools are added to it");
  const config = o.config ?? {};
  const gw = config.gateway ?? {};
  const auth = new Auth((gw.tokens ?? []) as TokenSpec[], o.env ?? process.env);
  const hosts = hostCheck(gw, o.allowedHosts);
  const { store } = o;
  const recovery = await store.recover(Date.now());
  const recorder = await EventRecorder.start(store);
  const waiters = new Waiters(store);
  const shutdown = new AbortController();
  // Every open event stream listens for shutdown.
  setMaxListeners(Infinity, shutdown.signal);
  const [inflight, waiting] = [new Map<string, CallInfo>(), new WaitingCalls()];
  const pendingTtlMs = gw.pendingTtlMs ?? 24 * 3600_000;
  const deps = {
    store,
    waiters,
    recorder,
    callInfo: (id: string) => inflight.get(id),
    pendingTtlMs,
    waiting,
    ...(o.fetch ? { fetch: o.fetch } : {}),
  };
  registerBuiltins(o.registry, deps);
  const declared = registerDeclared(o.registry, config.tools ?? [], deps);

  const log = new StoreLogSink(store);
  const asker: HttpAsker = {
    approver: httpApprover(store, waiters, recorder),
    elicitor: httpElicitor(store, waiters, recorder),
  };
  const executor = o.executor ?? ownExecutor(o, asker, log);
  const leaveExecutor = o.executor ? joinExecutor(o.executor, asker, log) : () => {};
  const domain: Domain = {
    store,
    executor,
    registry: o.registry,
    recorder,
    inflight,
    waiting,
    shutdown: shutdown.signal,
    waiters,
    ...perCall(store, gw),
  };
  const stopRecording = recordChanges(executor, o.registry, recorder);
  const stopStreaming = streamVisible(executor, domain);
  const app = httpApp(domain, o, { auth, hosts, declared, waiters, log });

  const { sweep, timer } = startSweeping(store, recorder, o);

  const listeners = new Listeners(app, hosts, auth, gw);
  return {
    app,
    executor,
    store,
    recorder,
    auth,
    recovery,
    consoleDir: consoleDirOf(o),
    sweep,
    fetch: (req) => app.fetch(req),
    listen: (opts) => listeners.listen(opts),
    async close() {
      clearInterval(timer);
      stopRecording();
      stopStreaming();
      leaveExecutor();
      shutdown.abort();
      waiters.close();
      await waiting.close(5000);
      await listeners.closeAll();
      await recorder.flush();
      recorder.close();
      await log.flush();
    },
  };
}

/** What the domain keeps about calls in flight and sessions. */
function perCall(store: GatewayStore, gw: GatewaySection): Pick<Domain, 'visible' | 'sessions' | 'cycleLeaseMs'> {
  return {
    visible: new Map(),
    sessions: new SessionOwners(store),
    cycleLeaseMs: gw.cycleLeaseMs ?? DEFAULT_CYCLE_LEASE_MS,
  };
}

/** The console's directory: the caller's, none (`false`), or the one built into this package. */
function consoleDirOf(o: GatewayBaseOptions): string | undefined {
  return o.consoleDir === false ? undefined : (o.consoleDir ?? defaultConsoleDir());
}

/** The Host and Origin check: localhost, the bound address, and the names the config and the caller allow. */
function hostCheck(gw: GatewaySection, allowedHosts: readonly string[] = []): HostCheck {
  return new HostCheck({
    allowedHosts: [...(gw.allowedHosts ?? []), ...allowedHosts],
    howToAllow: (name) => `add "${name}" to gateway.allowedHosts in the config`,
  });
}

/** The HTTP app in front of the domain, counting its requests for the metrics it serves. */
function httpApp(domain: Domain, o: GatewayBaseOptions, { waiters, log, ...front }: HttpAppParts): Hono<AuthEnv> {
  const http = new HttpCounter();
  return buildApp(domain, {
    ...front,
    maxBodyBytes: o.config?.gateway?.maxBodyBytes ?? 4 * 1024 * 1024,
    http,
    metrics: metricsText(domain, { http, waiters, log }),
    consoleDir: consoleDirOf(o),
    ...(o.mcpServers ? { mcpServers: o.mcpServers } : {}),
    ...(o.heartbeatMs ? { heartbeatMs: o.heartbeatMs } : {}),
  });
}

type HttpAppParts = Pick<AppOptions, 'auth' | 'hosts' | 'declared'> & { waiters: Waiters; log: StoreLogSink };

/** The addresses the gateway listens on: each bind checked as safe and let through the host check. */
class Listeners {
  private readonly open: Listening[] = [];

  constructor(
    private readonly app: Hono<AuthEnv>,
    private readonly hosts: HostCheck,
    private readonly auth: Auth,
    private readonly gw: GatewaySection,
  ) {}

  async listen(opts: { host?: string; port?: number } = {}): Promise<Listening> {
    const host = opts.host ?? this.gw.host ?? DEFAULT_HOST;
    assertSafeBind(host, this.auth.enabled);
    this.hosts.allowBound(host);
    const l = await listen(this.app.fetch, host, opts.port ?? this.gw.port ?? DEFAULT_PORT);
    this.open.push(l);
    return l;
  }

  async closeAll(): Promise<void> {
    await Promise.all(this.open.splice(0).map((l) => l.close()));
  }
}

/** How a call over HTTP asks a person: approvals and tools' questions, both answered through the API. */
interface HttpAsker {
  approver: Approver;
  elicitor: Elicitor;
}

/** The gateway's own executor: the caller's registry and policy, the store's approver and log. */
function ownExecutor(o: GatewayBaseOptions & OwnExecutorOptions, asker: HttpAsker, log: StoreLogSink): Executor {
  const config = o.config ?? {};
  const limits = config.limits ?? {};
  return new Executor({
    registry: o.registry,
    policy: o.policy,
    approver: asker.approver,
    elicitors: { http: asker.elicitor },
    log,
    ...(o.workspace ? { workspace: o.workspace } : {}),
    ...(limits.maxOutputChars ? { maxOutputChars: limits.maxOutputChars } : {}),
    ...(limits.defaultTimeoutMs ? { defaultTimeoutMs: limits.defaultTimeoutMs } : {}),
    ...(limits.approvalTimeoutMs ? { approvalTimeoutMs: limits.approvalTimeoutMs } : {}),
  });
}

/** The executor's events and the registry's changes, into the event log; returns how to stop. */
function recordChanges(executor: Executor, registry: ToolRegistry, recorder: EventRecorder): () => void {
  // The approver publishes approval.requested itself, once the store holds the request; requests
  // for calls from other front ends are theirs to show.
  const offEvents = executor.events.on((e) => e.type !== 'approval.requested' && recorder.publish(e));
  const offRegistry = registry.onChange((ch) =>
    recorder.publish({
      type: 'registry.changed',
      change: ch.type,
      name: ch.name,
      ts: Date.now(),
      sessionId: 'gateway',
    }),
  );
  return () => {
    offEvents();
    offRegistry();
  };
}

/** Joins an executor built elsewhere; returns how to leave it. */
function joinExecutor(executor: Executor, asker: HttpAsker, log: StoreLogSink): () => void {
  const leaveApprovals = executor.approvals.register('http', asker.approver);
  const leaveQuestions = executor.elicitations.register('http', asker.elicitor);
  const removeLog = executor.logs.add(log);
  return () => {
    leaveApprovals();
    leaveQuestions();
    removeLog();
  };
}

/** Expires overdue open calls (telling their agents) and prunes events older than the retention. */
function sweeper(store: GatewayStore, recorder: EventRecorder, retentionMs: number): () => Promise<void> {
  return async () => {
    const now = Date.now();
    // Several instances on one database: calls of an instance that died end here, not at its restart.
    await store.reclaimOrphans?.(now);
    for (const c of await store.expireCalls(now)) {
      recorder.publish({
        type: 'pending.expired',
        ts: now,
        sessionId: c.sessionId,
        runId: c.runId,
        agentId: c.agentId,
        callId: c.callId,
        tool: c.tool,
      });
      if (c.visible) publishSettled(recorder, await store.spaces.messageOfCall(c.callId));
    }
    await store.pruneEvents(now - retentionMs);
  };
}

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
