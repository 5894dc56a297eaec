// The routes of the OpenAPI document, one entry per path; a test checks every route is here.
import { PROVIDER_FORMATS } from '@toolbelt/core';
import { auth, body, err, json, path, query, ref } from './parts.js';

export const PATHS = {
  '/healthz': {
    get: {
      summary: 'Liveness',
      security: [],
      responses: {
        '200': json({ type: 'object', properties: { ok: { const: true } } }, 'the gateway is up'),
        '503': json(
          { type: 'object', properties: { ok: { const: false }, error: { type: 'string' } } },
          'the gateway cannot reach its database; it retries by itself',
        ),
        '403': err('the Host or Origin header is not allowed'),
      },
    },
  },
  '/api/openapi.json': {
    get: { summary: 'This document', security: [], responses: { '200': json({ type: 'object' }, 'OpenAPI 3.1') } },
  },
  '/metrics': {
    get: {
      summary: 'Prometheus metrics (role admin)',
      responses: {
        '200': { description: 'text exposition format', content: { 'text/plain': { schema: { type: 'string' } } } },
        ...auth,
      },
    },
  },
  '/api/tools': {
    get: {
      summary: 'List the tools',
      parameters: [query('format', 'a provider format instead of ours', { enum: [...PROVIDER_FORMATS] })],
      responses: {
        '200': json({ type: 'object', properties: { tools: { type: 'array', items: ref('Tool') } } }, 'the tools'),
        '400': err('unknown format'),
        ...auth,
      },
    },
  },
  '/api/runs/{runId}/tool-calls': {
    post: {
      summary: 'Call a tool (role call)',
      description:
        'Answered with the ToolResult. An async tool answers status "pending" at once; a waiting tool blocks up to its timeout.',
      parameters: [path('runId', 'the run (agent cycle) making the call')],
      requestBody: body(ref('CallRequest')),
      responses: {
        '200': json(ref('ToolResult'), 'the result, whatever its status'),
        '400': err('malformed body, or nested over 65 levels (INVALID_PARAMS)'),
        '404': json(ref('ToolResult'), 'unknown tool (a ToolResult with UNKNOWN_TOOL and suggestions)'),
        '409': err('callId already used'),
        '413': err('body too large'),
        '422': json(ref('ToolResult'), 'the input does not match the tool schema (INVALID_PARAMS)'),
        ...auth,
      },
    },
  },
  '/api/runs/{runId}/tool-results': {
    post: {
      summary:
        "Submit the result of an open call (role submit), or a person's answer to a space call (role person, a member of its space)",
      description:
        'A waiting call returns it to its agent at once; a pending call puts it in the agent inbox, exactly once. Its space message becomes complete (or error). With spaceId, a call posted to another space is refused (404).',
      parameters: [path('runId', 'the run the call was made in')],
      requestBody: body(ref('ResultSubmission')),
      responses: {
        '200': json(ref('SubmitAnswer'), 'accepted'),
        '400': err('malformed body, or nested over 65 levels (INVALID_PARAMS)'),
        '404': err('no such call in this run (or not visible to this token)'),
        '409': err('the call already has its result, or does not take submitted results'),
        '410': err('the call expired'),
        ...auth,
      },
    },
  },
  '/api/tool-calls': {
    get: {
      summary: 'List calls, newest first',
      parameters: [
        query('runId', 'only this run'),
        query('agentId', 'only this agent'),
        query('status', 'comma-separated statuses', { type: 'string', examples: ['waiting,pending'] }),
        query('tool', 'only this tool'),
        query('limit', '1-500, default 50', { type: 'integer' }),
        query('before', 'the nextBefore of the previous page', { type: 'integer' }),
      ],
      responses: {
        '200': json(
          {
            type: 'object',
            properties: { calls: { type: 'array', items: ref('Call') }, nextBefore: { type: 'integer' } },
          },
          'calls',
        ),
        '400': err('bad filter'),
        ...auth,
      },
    },
  },
  '/api/tool-calls/{callId}': {
    get: {
      summary: 'One call',
      parameters: [path('callId', 'the call')],
      responses: { '200': json(ref('Call'), 'the call'), '404': err('no such call visible to this token'), ...auth },
    },
  },
  '/api/tool-calls/{callId}/approve': {
    post: {
      summary: 'Approve a call awaiting approval (role approve)',
      parameters: [path('callId', 'the call')],
      requestBody: {
        required: false,
        content: {
          'application/json': {
            schema: {
              type: 'object',
              additionalProperties: false,
              properties: { scope: { enum: ['once', 'session', 'always'], default: 'once' } },
            },
          },
        },
      },
      responses: {
        '200': json(ref('DecisionAnswer'), 'approved'),
        '404': err('no such call'),
        '409': err('not awaiting approval'),
        ...auth,
      },
    },
  },
  '/api/tool-calls/{callId}/reject': {
    post: {
      summary: 'Reject a call awaiting approval (role approve)',
      parameters: [path('callId', 'the call')],
      requestBody: {
        required: false,
        content: {
          'application/json': {
            schema: {
              type: 'object',
              additionalProperties: false,
              properties: { message: { type: 'string', description: 'for the model: why, and what to do instead' } },
            },
          },
        },
      },
      responses: {
        '200': json(ref('DecisionAnswer'), 'rejected'),
        '404': err('no such call'),
        '409': err('not awaiting approval'),
        ...auth,
      },
    },
  },
  '/api/tool-calls/{callId}/answer': {
    post: {
      summary:
        "Answer the question a call waits on (status awaiting_input: an MCP server's elicitation) (role approve)",
      parameters: [path('callId', 'the call')],
      requestBody: {
        required: true,
        content: {
          'application/json': {
            schema: {
              oneOf: [
                {
                  type: 'object',
                  additionalProperties: false,
                  required: ['action', 'content'],
                  properties: {
                    action: { const: 'accept' },
                    content: { type: 'object', description: "the form's values; fields left out take their defaults" },
                  },
                },
                {
                  type: 'object',
                  additionalProperties: false,
                  required: ['action'],
                  properties: { action: { enum: ['decline', 'cancel'] } },
                },
              ],
            },
          },
        },
      },
      responses: {
        '200': json(ref('AnswerReply'), 'answered; the call runs on'),
        '400': err("the content does not fit the question's form"),
        '404': err('no such call'),
        '409': err('not waiting for an answer'),
        ...auth,
      },
    },
  },
  '/api/agents/{agentId}/inbox': {
    get: {
      summary: "The agent's unread inbox (role call)",
      parameters: [
        path('agentId', 'the agent'),
        query('after', 'only messages with a greater id', { type: 'integer' }),
        query('limit', '1-1000, default 100', { type: 'integer' }),
        query('includeAcked', 'also read messages', { type: 'boolean' }),
      ],
      responses: {
        '200': json(
          { type: 'object', properties: { messages: { type: 'array', items: ref('InboxMessage') } } },
          'messages, oldest first',
        ),
        ...auth,
      },
    },
  },
  '/api/agents/{agentId}/inbox/ack': {
    post: {
      summary: 'Mark inbox messages read (role call)',
      parameters: [path('agentId', 'the agent')],
      requestBody: body({
        type: 'object',
        required: ['ids'],
        additionalProperties: false,
        properties: { ids: { type: 'array', items: { type: 'integer' }, minItems: 1, maxItems: 1000 } },
      }),
      responses: {
        '200': json(
          { type: 'object', properties: { acknowledged: { type: 'integer' } } },
          'how many were newly marked',
        ),
        '400': err('bad ids'),
        ...auth,
      },
    },
  },
  '/api/events': {
    get: {
      summary: 'Server-Sent Events (role events)',
      description:
        'Every event of the core vocabulary plus pending.created, pending.resolved, pending.expired and inbox.added. Each has an id; reconnect with Last-Event-ID (or ?lastEventId=) to get what was missed, from the store. Without it, live events only.',
      parameters: [
        query('runId', 'only this run'),
        query('agentId', 'only these agents (comma-separated)'),
        query('types', 'only these event types (comma-separated)'),
        query('lastEventId', 'replay after this id'),
        query('access_token', 'the token, for clients that cannot send headers'),
        { name: 'Last-Event-ID', in: 'header', required: false, schema: { type: 'string' } },
      ],
      responses: {
        '200': { description: 'an event stream', content: { 'text/event-stream': { schema: { type: 'string' } } } },
        '400': err('bad filter or Last-Event-ID'),
        ...auth,
      },
    },
  },
  '/api/executions': {
    get: {
      summary: 'The execution log, newest first (role admin)',
      parameters: [
        query('tool', 'only this tool'),
        query('status', 'only this status'),
        query('agentId', 'only this agent'),
        query('runId', 'only this run'),
        query('since', 'ISO time'),
        query('limit', '1-1000, default 100', { type: 'integer' }),
        query('before', "the next page: the last answer's nextBefore", { type: 'integer' }),
      ],
      responses: {
        '200': json(
          {
            type: 'object',
            properties: { entries: { type: 'array', items: { type: 'object' } }, nextBefore: { type: 'integer' } },
          },
          'log entries; nextBefore is absent on the last page',
        ),
        ...auth,
      },
    },
  },
} as const;
