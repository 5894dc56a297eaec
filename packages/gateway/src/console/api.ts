// What the web console reads besides the rest of the API: who the token is, live metrics, tool groups.
import { listGroups } from '@toolbelt/core';
import type { McpServerState, WhoAmI } from '@toolbelt/protocol';
import type { Domain } from '../domain/context.js';
import type { Auth } from '../http/auth.js';
import { route, type Router } from '../http/route.js';

/** The MCP servers' states, from whoever runs them (toolbelt serve's MCP provider). */
export type McpStates = () => McpServerState[];

export function consoleApiRoutes(r: Router, d: Domain, auth: Auth, servers: McpStates = () => []): void {
  route(r, 'whoAmI', (c): WhoAmI => {
    const p = c.var.principal;
    return {
      name: p.name,
      roles: [...p.roles],
      authEnabled: auth.enabled,
      ...(p.agents ? { agents: [...p.agents] } : {}),
    };
  });
  route(r, 'metrics', async () => ({
    ts: Date.now(),
    tools: d.executor.metrics.snapshot(),
    callsByStatus: await d.store.countCallsByStatus(),
  }));
  route(r, 'groups', () => ({ groups: listGroups(d.registry), servers: servers() }));
}
