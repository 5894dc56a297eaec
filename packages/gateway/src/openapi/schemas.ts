// The shapes the routes exchange (components.schemas); their TypeScript form is core's wire.ts.
import { SPACE_SCHEMAS } from './space-schemas.js';
import { CALL_STATUSES } from '../store/index.js';
import { ref } from './parts.js';

export const SCHEMAS = {
  Error: {
    type: 'object',
    required: ['error'],
    properties: {
      error: {
        type: 'object',
        required: ['code', 'message'],
        properties: { code: { type: 'string' }, message: { type: 'string' } },
      },
    },
  },
  Tool: {
    type: 'object',
    required: ['name', 'description', 'inputSchema', 'effect', 'perCall', 'visible'],
    properties: {
      name: { type: 'string' },
      title: { type: 'string' },
      description: { type: 'string' },
      inputSchema: { type: 'object' },
      effect: { enum: ['read', 'write', 'execute', 'destructive', 'per-call'] },
      perCall: { type: 'boolean' },
      category: { type: 'string' },
      visible: { type: 'boolean' },
      executionType: { enum: ['gateway', 'external', 'space', 'internal'] },
      isAsync: { type: 'boolean' },
      timeout: { type: 'integer' },
    },
  },
  CallRequest: {
    type: 'object',
    required: ['agentId', 'name'],
    additionalProperties: false,
    properties: {
      agentId: { type: 'string' },
      name: { type: 'string' },
      input: { type: ['object', 'string'], description: 'the arguments (a JSON object, or a string holding one)' },
      callId: {
        type: 'string',
        pattern: '^[A-Za-z0-9_.:-]{1,128}$',
        description: 'your id for the call (e.g. the model tool_call id); one is made when absent',
      },
      sessionId: {
        type: 'string',
        description:
          'scope of "session" approvals; default the agentId. Belongs to the agent that first used it: another agent sending it gets 403 SESSION_NOT_YOURS',
      },
      model: { type: 'string' },
      context: {
        type: 'string',
        maxLength: 2000,
        description: 'where in the conversation the call comes from; shown to whoever approves it',
      },
    },
  },
  ToolResult: {
    type: 'object',
    description: 'error is present exactly when status is "error", rejection exactly when it is "rejected"',
    required: ['status', 'callId', 'tool', 'content', 'durationMs'],
    properties: {
      status: { enum: ['success', 'error', 'rejected', 'pending'] },
      callId: { type: 'string' },
      tool: { type: 'string' },
      content: {
        type: 'array',
        items: { type: 'object', required: ['type'], properties: { type: { enum: ['text', 'json', 'image'] } } },
      },
      display: { type: 'object' },
      metadata: { type: 'object' },
      structured: {},
      durationMs: { type: 'number' },
      error: {
        type: 'object',
        properties: { code: { type: 'string' }, message: { type: 'string' }, recoverable: { type: 'boolean' } },
      },
      rejection: { type: 'object', properties: { reason: { type: 'string' }, userMessage: { type: 'string' } } },
      approvedBy: { enum: ['auto', 'user', 'rule', 'remembered'] },
    },
  },
  ResultSubmission: {
    type: 'object',
    required: ['callId'],
    additionalProperties: false,
    description: 'exactly one of result or error',
    properties: {
      callId: { type: 'string' },
      result: { description: 'any JSON' },
      error: { type: 'string' },
      spaceId: { type: 'string', description: 'the space the answer is given in' },
    },
  },
  SubmitAnswer: {
    type: 'object',
    properties: {
      callId: { type: 'string' },
      status: { const: 'resolved' },
      delivered: { enum: ['inline', 'inbox'] },
      inboxMessageId: { type: 'integer' },
    },
  },
  Call: {
    type: 'object',
    properties: {
      truncated: {
        type: 'object',
        description:
          'listings only: these fields were over 8 KiB and are listed as a preview string; GET href for the whole call',
        properties: {
          fields: { type: 'array', items: { type: 'string' } },
          size: { type: 'integer' },
          href: { type: 'string' },
        },
      },
      seq: { type: 'integer' },
      callId: { type: 'string' },
      runId: { type: 'string' },
      agentId: { type: 'string' },
      sessionId: { type: 'string' },
      tool: { type: 'string' },
      input: {},
      status: { enum: CALL_STATUSES },
      visible: { type: 'boolean' },
      approval: { type: 'object' },
      decision: { type: 'object' },
      question: {
        type: 'object',
        description: "status awaiting_input: the tool's question (message, source, schema: a flat form)",
      },
      answer: {
        type: 'object',
        description: 'the answer given to the question: action accept (with content), decline or cancel; by whom',
      },
      submitted: { type: 'object' },
      result: ref('ToolResult'),
      createdAt: { type: 'integer' },
      updatedAt: { type: 'integer' },
      expiresAt: { type: 'integer' },
      resolvedAt: { type: 'integer' },
    },
  },
  DecisionAnswer: {
    type: 'object',
    properties: { callId: { type: 'string' }, status: { enum: CALL_STATUSES }, decision: { type: 'object' } },
  },
  AnswerReply: {
    type: 'object',
    properties: { callId: { type: 'string' }, status: { enum: CALL_STATUSES }, answer: { type: 'object' } },
  },
  InboxMessage: {
    type: 'object',
    description:
      'kind tool_result: a late result (runId, callId, tool, result or error); kind message: a message posted in a space (spaceId, message)',
    properties: {
      id: { type: 'integer' },
      agentId: { type: 'string' },
      kind: { enum: ['tool_result', 'message'] },
      runId: { type: 'string' },
      callId: { type: 'string' },
      tool: { type: 'string' },
      result: {},
      error: { type: 'string' },
      spaceId: { type: 'string' },
      message: { $ref: '#/components/schemas/SpaceMessage' },
      createdAt: { type: 'integer' },
      ackedAt: { type: 'integer' },
      cycleId: { type: 'string' },
    },
  },
  ...SPACE_SCHEMAS,
} as const;
