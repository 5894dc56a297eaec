// The web console's page and assets, and what it reads besides the rest of the API.
import { auth, err, json, path, ref } from './parts.js';

const html = (description: string) => ({ description, content: { 'text/html': { schema: { type: 'string' } } } });

export const CONSOLE_PATHS = {
  '/': {
    get: {
      summary: 'The web console (approvals, spaces, activity, tools); it asks for a token and keeps it in the tab',
      security: [],
      responses: {
        '200': html('the console page'),
        '404': html('the console is not built in this installation'),
        '403': err('the Host or Origin header is not allowed'),
      },
    },
  },
  '/assets/{file}': {
    get: {
      summary: "The console's scripts and styles (names carry their content hash; cached for a year)",
      security: [],
      parameters: [path('file', 'the asset')],
      responses: {
        '200': { description: 'the asset' },
        '404': err('no such asset'),
        '403': err('the Host or Origin header is not allowed'),
      },
    },
  },
  '/api/me': {
    get: {
      summary:
        'Who this token is: its name (a person posts as it), roles and agents, and whether the gateway asks for tokens',
      responses: { '200': json(ref('WhoAmI'), 'the token'), ...auth },
    },
  },
  '/api/metrics': {
    get: {
      summary:
        "Per-tool call counts and latency percentiles (the executor's), and the store's calls by status, as JSON (role admin)",
      responses: { '200': json(ref('MetricsAnswer'), 'the metrics now'), ...auth },
    },
  },
  '/api/groups': {
    get: {
      summary:
        "The tool groups (an MCP server's tools are the group mcp:<server>) and the MCP servers with their connection state",
      responses: {
        '200': json(
          {
            type: 'object',
            properties: {
              groups: { type: 'array', items: ref('ToolGroup') },
              servers: { type: 'array', items: ref('McpServerState') },
            },
          },
          'the groups and servers',
        ),
        ...auth,
      },
    },
  },
};

export const CONSOLE_SCHEMAS = {
  WhoAmI: {
    type: 'object',
    required: ['name', 'roles', 'authEnabled'],
    properties: {
      name: { type: 'string' },
      roles: { type: 'array', items: { type: 'string' } },
      agents: { type: 'array', items: { type: 'string' } },
      authEnabled: { type: 'boolean' },
    },
  },
  MetricsAnswer: {
    type: 'object',
    required: ['ts', 'tools', 'callsByStatus'],
    properties: {
      ts: { type: 'integer' },
      tools: {
        type: 'array',
        items: {
          type: 'object',
          properties: Object.fromEntries(
            ['calls', 'success', 'errors', 'rejected', 'pending', 'avgMs', 'p50Ms', 'p90Ms', 'p99Ms']
              .map((k) => [k, { type: 'number' }])
              .concat([['tool', { type: 'string' }]]),
          ),
        },
      },
      callsByStatus: { type: 'object', additionalProperties: { type: 'integer' } },
    },
  },
  McpServerState: {
    type: 'object',
    required: ['name', 'state'],
    properties: {
      name: { type: 'string' },
      state: { enum: ['disabled', 'connecting', 'connected', 'failed'] },
      tools: { type: 'integer' },
      reason: { type: 'string' },
    },
  },
  ToolGroup: {
    type: 'object',
    required: ['name', 'summary', 'tools'],
    properties: {
      name: { type: 'string' },
      summary: { type: 'string' },
      tools: { type: 'array', items: { type: 'string' } },
    },
  },
};
