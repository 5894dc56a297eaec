// The shapes of spaces in the OpenAPI document (their TypeScript form: core's wire-spaces.ts).
const str = { type: 'string' };
const int = { type: 'integer' };

export const SPACE_SCHEMAS = {
  Space: { type: 'object', properties: { id: str, name: str, createdAt: int } },
  SpaceMember: {
    type: 'object',
    properties: { spaceId: str, memberId: str, kind: { enum: ['person', 'agent'] }, joinedAt: int },
  },
  SpaceMessage: {
    type: 'object',
    description:
      'A text message (complete at once) or a visible tool call: running, requires_action (a space tool waiting for a person), complete or error.',
    properties: {
      id: int,
      spaceId: str,
      senderId: str,
      senderKind: { enum: ['person', 'agent'] },
      kind: { enum: ['text', 'tool_call'] },
      text: str,
      callId: str,
      runId: str,
      tool: str,
      input: {},
      result: {},
      error: str,
      status: { enum: ['running', 'requires_action', 'complete', 'error'] },
      createdAt: int,
      updatedAt: int,
    },
  },
  AgentNote: { type: 'object', properties: { id: str, text: str, updatedAt: int } },
  AgentPrompt: {
    type: 'object',
    description: 'prompt is the system-prompt fragment; the other fields are what it was made from',
    properties: {
      agentId: str,
      prompt: str,
      activeSpace: { type: ['string', 'null'] },
      spaces: { type: 'array', items: { $ref: '#/components/schemas/Space' } },
      visibleTools: { type: 'array', items: str },
      goals: { type: 'array', items: { $ref: '#/components/schemas/AgentNote' } },
      memories: { type: 'array', items: { $ref: '#/components/schemas/AgentNote' } },
      plans: { type: 'array', items: { $ref: '#/components/schemas/AgentNote' } },
    },
  },
  Cycle: {
    type: 'object',
    description: 'cycleId null and no messages when the inbox stayed empty',
    properties: {
      cycleId: { type: ['string', 'null'] },
      messages: { type: 'array', items: { $ref: '#/components/schemas/InboxMessage' } },
      leaseExpiresAt: {
        type: 'integer',
        description: 'epoch ms: not done by then, the messages go to the next cycle (a heartbeat extends it)',
      },
    },
  },
} as const;
