// The answers the web console reads besides the rest of the API (types only).
import type { ToolGroup, ToolMetricsSnapshot } from '@toolbelt/core';
import type { CallStatus } from './calls.js';

/** GET /api/me: who the token is, so a page knows what it may do and whom it speaks as. */
export interface WhoAmI {
  name: string;
  roles: string[];
  /** The agents the token may act for; absent means every agent. */
  agents?: string[];
  /** Whether the gateway asks for tokens at all. */
  authEnabled: boolean;
}

/** GET /api/metrics: the executor's per-tool counters and latency percentiles, and the store's calls by status. */
export interface MetricsAnswer {
  ts: number;
  tools: ToolMetricsSnapshot[];
  callsByStatus: Partial<Record<CallStatus, number>>;
}

/** An MCP server the gateway proxies, and how its connection stands. */
export interface McpServerState {
  name: string;
  state: 'disabled' | 'connecting' | 'connected' | 'failed';
  /** Tools it serves, when connected. */
  tools?: number;
  /** Why it failed. */
  reason?: string;
}

/** GET /api/groups: the tool groups (an MCP server's tools are the group `mcp:<server>`) and the MCP servers. */
export interface GroupList {
  groups: ToolGroup[];
  servers: McpServerState[];
}
