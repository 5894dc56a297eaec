// The routes of spaces, agents' notes and think cycles in the OpenAPI document.
import { auth, body, err, json, path, query, ref } from './parts.js';

const spaceId = path('spaceId', 'the space');
const members = json(
  { type: 'object', properties: { members: { type: 'array', items: ref('SpaceMember') } } },
  'the members now',
);
const noSpace = err('no such space (or not one this token sees)');
const text = { type: 'string', minLength: 1, maxLength: 200 };

function notes(kind: string) {
  return {
    get: {
      summary: `The agent's ${kind} (a token for the agent, or a person sharing a space with it)`,
      parameters: [path('agentId', 'the agent')],
      responses: {
        '200': json(
          {
            type: 'object',
            properties: {
              agentId: { type: 'string' },
              kind: { const: kind },
              notes: { type: 'array', items: ref('AgentNote') },
            },
          },
          kind,
        ),
        ...auth,
      },
    },
  };
}

export const SPACE_PATHS = {
  '/api/spaces': {
    post: {
      summary: 'Create a space (role admin)',
      requestBody: body({
        type: 'object',
        required: ['name'],
        additionalProperties: false,
        properties: { name: text, id: text },
      }),
      responses: { '201': json(ref('Space'), 'created'), '409': err('the id is taken'), ...auth },
    },
    get: {
      summary: 'The spaces this token sees: all for admin, its own for a person or agent token',
      responses: {
        '200': json(
          { type: 'object', properties: { spaces: { type: 'array', items: ref('Space') } } },
          'spaces, oldest first',
        ),
        ...auth,
      },
    },
  },
  '/api/spaces/{spaceId}/members': {
    get: {
      summary: 'Members of a space',
      parameters: [spaceId],
      responses: { '200': members, '404': noSpace, ...auth },
    },
    post: {
      summary: 'Add a person or an agent (role admin)',
      parameters: [spaceId],
      requestBody: body({
        type: 'object',
        required: ['memberId', 'kind'],
        additionalProperties: false,
        properties: { memberId: text, kind: { enum: ['person', 'agent'] } },
      }),
      responses: { '200': members, '404': noSpace, ...auth },
    },
  },
  '/api/spaces/{spaceId}/members/{memberId}': {
    delete: {
      summary: 'Remove a member (role admin); an agent whose active space this was leaves it',
      parameters: [spaceId, path('memberId', 'the member')],
      responses: { '200': members, '404': err('no such space or member'), ...auth },
    },
  },
  '/api/spaces/{spaceId}/messages': {
    post: {
      summary: 'Post a text message as a member: every other agent member gets it in its inbox',
      description: 'A person token posts as its name; an agent token as an agent it acts for; admin as any member.',
      parameters: [spaceId],
      requestBody: body({
        type: 'object',
        required: ['senderId', 'text'],
        additionalProperties: false,
        properties: { senderId: text, text: { type: 'string', minLength: 1 } },
      }),
      responses: {
        '201': json(
          {
            type: 'object',
            properties: { message: ref('SpaceMessage'), delivered: { type: 'array', items: { type: 'string' } } },
          },
          'posted',
        ),
        '404': noSpace,
        ...auth,
        '403': err('the sender is not a member, or this token may not post as it (or no role here)'),
      },
    },
    get: {
      summary: 'Messages oldest first, text and visible tool calls',
      parameters: [
        spaceId,
        query('offset', 'first message (0 = oldest)', { type: 'integer' }),
        query('limit', '1-500, default 50', { type: 'integer' }),
      ],
      responses: {
        '200': json(
          {
            type: 'object',
            properties: { messages: { type: 'array', items: ref('SpaceMessage') }, total: { type: 'integer' } },
          },
          'a page',
        ),
        '404': noSpace,
        ...auth,
      },
    },
  },
  '/api/spaces/{spaceId}/events': {
    get: {
      summary: "One space's Server-Sent Events: message, tool.started, tool.streaming, tool.done, tool.error",
      parameters: [
        spaceId,
        query('lastEventId', 'replay after this id'),
        query('access_token', 'the token, for clients that cannot send headers'),
      ],
      responses: {
        '200': { description: 'an event stream', content: { 'text/event-stream': { schema: { type: 'string' } } } },
        '404': noSpace,
        ...auth,
      },
    },
  },
  '/api/agents/{agentId}/goals': notes('goals'),
  '/api/agents/{agentId}/memories': notes('memories'),
  '/api/agents/{agentId}/plans': notes('plans'),
  '/api/agents/{agentId}/prompt': {
    get: {
      summary:
        'A system-prompt fragment for a model driving the agent: the rules, its spaces, visible tools, goals, memories and plans',
      description:
        'Made fresh on each request from the store; `toolbelt agent` asks for it at the start of every think cycle.',
      parameters: [path('agentId', 'the agent')],
      responses: { '200': json(ref('AgentPrompt'), 'the prompt and what it was made from'), ...auth },
    },
  },
  '/api/agents/{agentId}/cycles': {
    post: {
      summary: 'Start a think cycle: the unread inbox as one batch, oldest first, marked taken (role call)',
      description:
        'A message is held by one cycle at a time, across restarts too, until leaseExpiresAt: a cycle not done by then offers its messages again to the next cycle (at least once). With ?wait= the request waits for a first message.',
      parameters: [
        path('agentId', 'the agent'),
        query('wait', 'ms to wait for a first message, at most 60000', { type: 'integer' }),
        query('limit', '1-1000, default 100', { type: 'integer' }),
      ],
      responses: { '200': json(ref('Cycle'), 'the batch'), ...auth },
    },
  },
  '/api/agents/{agentId}/cycles/{cycleId}/done': {
    post: {
      summary: 'Acknowledge the messages a cycle still holds (role call); done again acknowledges 0',
      parameters: [path('agentId', 'the agent'), path('cycleId', 'from POST .../cycles')],
      responses: {
        '200': json(
          { type: 'object', properties: { cycleId: { type: 'string' }, acknowledged: { type: 'integer' } } },
          'done',
        ),
        '404': err('no such cycle of this agent'),
        ...auth,
      },
    },
  },
  '/api/agents/{agentId}/cycles/{cycleId}/heartbeat': {
    post: {
      summary:
        "Extend a cycle's lease by the configured lease from now (role call), so a long cycle keeps its messages",
      parameters: [path('agentId', 'the agent'), path('cycleId', 'from POST .../cycles')],
      responses: {
        '200': json(
          { type: 'object', properties: { cycleId: { type: 'string' }, leaseExpiresAt: { type: 'integer' } } },
          'the new lease',
        ),
        '404': err('no such cycle of this agent, or it is done'),
        ...auth,
      },
    },
  },
} as const;
