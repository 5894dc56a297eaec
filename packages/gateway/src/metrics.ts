// GET /metrics: Prometheus text exposition of the executor's per-tool metrics and gateway state.
import type { ToolMetricsSnapshot } from '@toolbelt/core';
import { CALL_STATUSES, type CallStatus } from './store/index.js';

export interface GatewayGauges {
  tools: ToolMetricsSnapshot[];
  callsByStatus: Partial<Record<CallStatus, number>>;
  http: ReadonlyMap<string, number>;
  sseClients: number;
  waiters: number;
  storeFailures: number;
}

const esc = (v: string) => v.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');
const labels = (l: Record<string, string>) =>
  `{${Object.entries(l)
    .map(([k, v]) => `${k}="${esc(v)}"`)
    .join(',')}}`;

/** Counts HTTP requests by method, route pattern and status. */
export class HttpCounter {
  private readonly byKey = new Map<string, number>();
  add(method: string, route: string, status: number): void {
    const key = `${method} ${status} ${route}`;
    this.byKey.set(key, (this.byKey.get(key) ?? 0) + 1);
  }
  /** Label sets in exposition form, with their counts. */
  get counts(): Map<string, number> {
    const out = new Map<string, number>();
    for (const [key, n] of this.byKey) {
      const [method, code, ...route] = key.split(' ');
      out.set(labels({ method, route: route.join(' '), code }), n);
    }
    return out;
  }
}

export function renderMetrics(g: GatewayGauges): string {
  const out: string[] = [];
  const family = (name: string, type: string, help: string) =>
    out.push(`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`);
  family('toolbelt_tool_calls_total', 'counter', 'Tool calls finished, by tool and result status.');
  for (const t of g.tools) {
    for (const [status, n] of [
      ['success', t.success],
      ['error', t.errors],
      ['rejected', t.rejected],
      ['pending', t.pending],
    ] as const) {
      out.push(`toolbelt_tool_calls_total${labels({ tool: t.tool, status })} ${n}`);
    }
  }
  family(
    'toolbelt_tool_call_duration_milliseconds',
    'summary',
    'Tool call run time over the recent window, by tool (without the time spent waiting for a person to approve or answer).',
  );
  for (const t of g.tools) {
    for (const [q, v] of [
      ['0.5', t.p50Ms],
      ['0.9', t.p90Ms],
      ['0.99', t.p99Ms],
    ] as const) {
      out.push(`toolbelt_tool_call_duration_milliseconds${labels({ tool: t.tool, quantile: q })} ${v}`);
    }
    out.push(`toolbelt_tool_call_duration_milliseconds_sum${labels({ tool: t.tool })} ${t.avgMs * t.calls}`);
    out.push(`toolbelt_tool_call_duration_milliseconds_count${labels({ tool: t.tool })} ${t.calls}`);
  }
  family('toolbelt_gateway_calls', 'gauge', 'Calls recorded in the gateway store, by status.');
  for (const s of CALL_STATUSES) out.push(`toolbelt_gateway_calls${labels({ status: s })} ${g.callsByStatus[s] ?? 0}`);
  family('toolbelt_gateway_http_requests_total', 'counter', 'HTTP requests, by method, route and status code.');
  for (const [key, n] of g.http) out.push(`toolbelt_gateway_http_requests_total${key} ${n}`);
  family('toolbelt_gateway_sse_clients', 'gauge', 'Open event streams.');
  out.push(`toolbelt_gateway_sse_clients ${g.sseClients}`);
  family('toolbelt_gateway_waiters', 'gauge', 'Calls and approvals parked until a result or decision arrives.');
  out.push(`toolbelt_gateway_waiters ${g.waiters}`);
  family('toolbelt_gateway_store_failures_total', 'counter', 'Events or log entries the store failed to write.');
  out.push(`toolbelt_gateway_store_failures_total ${g.storeFailures}`);
  return out.join('\n') + '\n';
}
