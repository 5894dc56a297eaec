// Assembles one gateway: store-backed approvals, events, log and declared tools around an executor
// over the caller's registry and policy, and the HTTP app in front.
import { setMaxListeners } from 'node:events';
import { EventBus, Executor, HostCheck, type Approver, type Policy, type ToolRegistry, type Workspace } from '@toolbelt/core';
import type { Hono } from 'hono';
import { buildApp } from './app.js';
import type { GatewayConfig } from './config.js';
import { registerDeclared } from './declared/tool.js';
import type { CallInfo } from './declared/pending.js';
import { httpApprover } from './domain/approvals.js';
import type { Domain } from './domain/context.js';
import { EventRecorder } from './events/recorder.js';
import { Auth, type AuthEnv, type TokenSpec } from './http/auth.js';
import { StoreLogSink } from './log-sink.js';
import { HttpCounter, renderMetrics } from './metrics.js';
import { assertSafeBind, DEFAULT_HOST, DEFAULT_PORT, listen, type Listening } from './server.js';
import type { GatewayStore, RecoveryReport } from './store/types.js';
import { Waiters } from './waiters.js';

export interface GatewayOptions {
  /** The tools to serve; the config's declared tools are added to it. */
  registry: ToolRegistry;
  /** Build it with policyWithStore() so "always" approvals are kept in the store. */
  policy: Policy;
  store: GatewayStore;
  workspace?: Workspace;
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
}

export interface Gateway {
  readonly app: Hono<AuthEnv>;
  readonly executor: Executor;
  readonly store: GatewayStore;
  readonly recorder: EventRecorder;
  readonly auth: Auth;
  /** What the start found left over from a previous process. */
  readonly recovery: RecoveryReport;
  fetch(req: Request): Response | Promise<Response>;
  /** Listens on host:port (default 127.0.0.1:7077; port 0 picks a free one). */
  listen(opts?: { host?: string; port?: number }): Promise<Listening>;
  /** Expires overdue calls and prunes old events now (also done on a timer). */
  sweep(): Promise<void>;
  /** Ends streams and calls in flight, writes what is buffered. The store stays open. */
  close(): Promise<void>;
}

export async function createGateway(o: GatewayOptions): Promise<Gateway> {
  const config = o.config ?? {};
  const gw = config.gateway ?? {};
  const auth = new Auth((gw.tokens ?? []) as TokenSpec[], o.env ?? process.env);
  const hosts = new HostCheck({ allowedHosts: [...(gw.allowedHosts ?? []), ...(o.allowedHosts ?? [])], howToAllow: (name) => `add "${name}" to gateway.allowedHosts in the config` });
  const { store } = o;
  const recovery = await store.recover(Date.now());
  const recorder = new EventRecorder(store);
  const waiters = new Waiters(store);
  const shutdown = new AbortController();
  // Every open event stream listens for shutdown.
  setMaxListeners(Infinity, shutdown.signal);
  const inflight = new Map<string, CallInfo>();

  const deps = { store, waiters, recorder, callInfo: (id: string) => inflight.get(id), pendingTtlMs: gw.pendingTtlMs ?? 24 * 3600_000, ...(o.fetch ? { fetch: o.fetch } : {}) };
  const declared = registerDeclared(o.registry, config.tools ?? [], deps);

  const log = new StoreLogSink(store);
  const events = new EventBus();
  const executor = gatewayExecutor(o, { approver: httpApprover(store, waiters, recorder), events, log });
  // The approver publishes approval.requested itself, once the store holds the request.
  events.on((e) => e.type !== 'approval.requested' && recorder.publish(e));
  const offRegistry = o.registry.onChange((ch) => recorder.publish({ type: 'registry.changed', change: ch.type, name: ch.name, ts: Date.now(), sessionId: 'gateway' }));

  const domain: Domain = { store, executor, registry: o.registry, recorder, inflight, shutdown: shutdown.signal };
  const http = new HttpCounter();
  const metrics = metricsText(domain, { http, waiters, log });
  const app = buildApp(domain, { auth, hosts, declared, maxBodyBytes: gw.maxBodyBytes ?? 4 * 1024 * 1024, http, metrics, ...(o.heartbeatMs ? { heartbeatMs: o.heartbeatMs } : {}) });

  const sweep = sweeper(store, recorder, o.eventRetentionMs ?? 7 * 24 * 3600_000);
  const timer = setInterval(() => void sweep().catch(() => recorder.failures++), o.sweepIntervalMs ?? 30_000);
  timer.unref();

  const listeners: Listening[] = [];
  return {
    app, executor, store, recorder, auth, recovery, sweep,
    fetch: (req) => app.fetch(req),
    async listen(opts = {}) {
      const host = opts.host ?? gw.host ?? DEFAULT_HOST;
      assertSafeBind(host, auth.enabled);
      hosts.allowBound(host);
      const l = await listen(app.fetch, host, opts.port ?? gw.port ?? DEFAULT_PORT);
      listeners.push(l);
      return l;
    },
    async close() {
      clearInterval(timer);
      offRegistry();
      shutdown.abort();
      waiters.close();
      await Promise.all(listeners.splice(0).map((l) => l.close()));
      await recorder.flush();
      await log.flush();
    },
  };
}

/** The executor behind the API: the caller's registry and policy, the store's approver and log. */
function gatewayExecutor(o: GatewayOptions, parts: { approver: Approver; events: EventBus; log: StoreLogSink }): Executor {
  const config = o.config ?? {};
  const limits = config.limits ?? {};
  return new Executor({
    registry: o.registry,
    policy: o.policy,
    ...parts,
    ...(o.workspace ? { workspace: o.workspace } : {}),
    ...(limits.maxOutputChars ? { maxOutputChars: limits.maxOutputChars } : {}),
    ...(limits.defaultTimeoutMs ? { defaultTimeoutMs: limits.defaultTimeoutMs } : {}),
    ...(limits.approvalTimeoutMs ? { approvalTimeoutMs: limits.approvalTimeoutMs } : {}),
  });
}

/** Expires overdue open calls (telling their agents) and prunes events older than the retention. */
function sweeper(store: GatewayStore, recorder: EventRecorder, retentionMs: number): () => Promise<void> {
  return async () => {
    const now = Date.now();
    for (const c of await store.expireCalls(now)) {
      recorder.publish({ type: 'pending.expired', ts: now, sessionId: c.sessionId, runId: c.runId, agentId: c.agentId, callId: c.callId, tool: c.tool });
    }
    await store.pruneEvents(now - retentionMs);
  };
}

function metricsText(d: Domain, more: { http: HttpCounter; waiters: Waiters; log: StoreLogSink }): () => Promise<string> {
  return async () =>
    renderMetrics({
      tools: d.executor.metrics.snapshot(), callsByStatus: await d.store.countCallsByStatus(), http: more.http.counts,
      sseClients: d.recorder.subscriberCount, waiters: more.waiters.size, storeFailures: d.recorder.failures + more.log.failures,
    });
}
