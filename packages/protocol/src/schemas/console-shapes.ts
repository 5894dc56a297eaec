// The shapes of what the web console reads besides the rest of the API (wire/console.ts).
import { z } from 'zod';
import { named } from './named.js';

export const whoAmI = named(
  'WhoAmI',
  z.object({
    name: z.string(),
    roles: z.array(z.string()),
    agents: z.array(z.string()).optional(),
    authEnabled: z.boolean(),
  }),
);

const toolMetrics = z.object({
  tool: z.string(),
  calls: z.number(),
  success: z.number(),
  errors: z.number(),
  rejected: z.number(),
  pending: z.number(),
  avgMs: z.number(),
  p50Ms: z.number(),
  p90Ms: z.number(),
  p99Ms: z.number(),
});

export const metricsAnswer = named(
  'MetricsAnswer',
  z.object({
    ts: z.number().int(),
    tools: z.array(toolMetrics),
    callsByStatus: z.record(z.string(), z.number().int()),
  }),
);

export const mcpServerState = named(
  'McpServerState',
  z.object({
    name: z.string(),
    state: z.enum(['disabled', 'connecting', 'connected', 'failed']),
    tools: z.number().int().optional(),
    reason: z.string().optional(),
  }),
);

export const toolGroup = named(
  'ToolGroup',
  z.object({ name: z.string(), summary: z.string(), tools: z.array(z.string()) }),
);

export const groupList = z.object({ groups: z.array(toolGroup), servers: z.array(mcpServerState) });
