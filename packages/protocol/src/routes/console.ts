// The web console: its page and assets, and what it reads besides the rest of the API.
import type { GroupList, MetricsAnswer, WhoAmI } from '../wire/index.js';
import { io, type RouteSpec } from './spec.js';

const hostRefused = { '403': 'the Host or Origin header is not allowed' };

export const CONSOLE_ROUTES = {
  consolePage: {
    method: 'GET',
    path: '/',
    role: 'public',
    summary: 'The web console (approvals, spaces, activity, tools); it asks for a token and keeps it in the tab',
    answer: 'html',
    errors: { '404': 'the console is not built in this installation', ...hostRefused },
    io: io<never, string>(),
  },
  consoleAsset: {
    method: 'GET',
    path: '/assets/:file',
    role: 'public',
    summary: "The console's scripts and styles (names carry their content hash; cached for a year)",
    params: { file: 'the asset' },
    answer: 'asset',
    errors: { '404': 'no such asset', ...hostRefused },
    io: io<never, string>(),
  },
  whoAmI: {
    method: 'GET',
    path: '/api/me',
    role: 'token',
    summary:
      'Who this token is: its name (a person posts as it), roles and agents, and whether the gateway asks for tokens',
    io: io<never, WhoAmI>(),
  },
  metrics: {
    method: 'GET',
    path: '/api/metrics',
    role: 'admin',
    summary: "Per-tool call counts and latency percentiles (the executor's), and the store's calls by status, as JSON",
    io: io<never, MetricsAnswer>(),
  },
  groups: {
    method: 'GET',
    path: '/api/groups',
    role: 'token',
    summary:
      "The tool groups (an MCP server's tools are the group mcp:<server>) and the MCP servers with their connection state",
    io: io<never, GroupList>(),
  },
} as const satisfies Record<string, RouteSpec>;
