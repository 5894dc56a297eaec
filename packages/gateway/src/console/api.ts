// What the web console reads besides the rest of the API: who the token is, live metrics, tool groups.
import { listGroups } from '@toolbelt/core';
import type { GroupList, McpServerState, MetricsAnswer, WhoAmI } from '@toolbelt/protocol';
import type { Hono } from 'hono';
import type { Domain } from '../domain/context.js';
import { requireRole, type Auth, type AuthEnv } from '../http/auth.js';

/** The MCP servers' states, from whoever runs them (toolbelt serve's MCP provider). */
export type McpStates = () => McpServerState[];

export function consoleApiRoutes(app: Hono<AuthEnv>, d: Domain, auth: Auth, servers: McpStates = () => []): void {
  app.get('/api/me', (c) => {
    const p = c.var.principal;
    const me: WhoAmI = {
      name: p.name,
      roles: [...p.roles],
      authEnabled: auth.enabled,
      ...(p.agents ? { agents: [...p.agents] } : {}),
    };
    return c.json(me);
  });
  app.get('/api/metrics', async (c) => {
    requireRole(c.var.principal, 'admin');
    const answer: MetricsAnswer = {
      ts: Date.now(),
      tools: d.executor.metrics.snapshot(),
      callsByStatus: await d.store.countCallsByStatus(),
    };
    return c.json(answer);
  });
  app.get('/api/groups', (c) => c.json({ groups: listGroups(d.registry), servers: servers() } satisfies GroupList));
}
