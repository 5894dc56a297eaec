// The shapes of the answers about tools and calls, as Zod schemas: the OpenAPI document is generated
// from them and a test checks the gateway's real answers against them. They say what a client may
// rely on; the TypeScript form (wire/) can say more, and each answer type must fit its schema
// (answer-fit.ts).
import { z } from 'zod';
import type { CallStatus } from '../wire/index.js';
import { named } from './named.js';
import { spaceMessage } from './space-shapes.js';

const int = z.number().int();
/** An object whose fields the schema leaves open (a core type documented elsewhere) */
const open = z.looseObject({}) as unknown as z.ZodType<object, object>;

export const CALL_STATUSES = [
  'running',
  'awaiting_approval',
  'awaiting_input',
  'waiting',
  'pending',
  'resolved',
  'expired',
  'success',
  'error',
  'rejected',
] as const satisfies readonly CallStatus[];
export const callStatus = z.enum(CALL_STATUSES);

export const errorBody = named(
  'Error',
  z.object({ error: z.object({ code: z.string(), message: z.string() }) }),
  'every refused request: what was wrong and what to do',
);

export const healthAnswer = z.object({ ok: z.boolean(), error: z.string().optional() });

export const toolInfo = named(
  'Tool',
  z.object({
    name: z.string(),
    title: z.string().optional(),
    description: z.string(),
    inputSchema: open,
    effect: z.enum(['read', 'write', 'execute', 'destructive', 'per-call']),
    perCall: z.boolean(),
    category: z.string().optional(),
    visible: z.boolean(),
    executionType: z.enum(['gateway', 'external', 'space', 'internal']).optional(),
    isAsync: z.boolean().optional(),
    timeout: int.optional(),
  }),
);

/** GET /api/tools: ours, or (with ?format) each tool in a provider's own shape. */
export const toolList = z.object({ tools: z.array(z.union([toolInfo, open])) });

export const toolResult = named(
  'ToolResult',
  z.object({
    status: z.enum(['success', 'error', 'rejected', 'pending']),
    callId: z.string(),
    tool: z.string(),
    content: z.array(z.object({ type: z.enum(['text', 'json', 'image']) })),
    display: open.optional(),
    metadata: z.record(z.string(), z.unknown()).optional(),
    structured: z.unknown().optional(),
    durationMs: z.number(),
    error: z.object({ code: z.string(), message: z.string(), recoverable: z.boolean() }).optional(),
    rejection: z.object({ reason: z.string(), userMessage: z.string().optional() }).optional(),
    approvedBy: z.enum(['auto', 'user', 'rule', 'remembered']).optional(),
  }),
  'error is present exactly when status is "error", rejection exactly when it is "rejected"',
);

export const submitAnswer = named(
  'SubmitAnswer',
  z.object({
    callId: z.string(),
    status: z.literal('resolved'),
    delivered: z.enum(['inline', 'inbox']),
    inboxMessageId: int.optional(),
  }),
);

const truncated = z
  .object({ fields: z.array(z.string()), size: int, href: z.string() })
  .describe(
    'listings only: these fields were over 8 KiB and are listed as a preview string; GET href for the whole call',
  );

export const callRecord = named(
  'Call',
  z.object({
    truncated: truncated.optional(),
    seq: int,
    callId: z.string(),
    runId: z.string(),
    agentId: z.string(),
    sessionId: z.string(),
    tool: z.string(),
    input: z.unknown(),
    status: callStatus,
    visible: z.boolean(),
    approval: open.optional(),
    decision: open.optional(),
    question: open
      .optional()
      .describe("status awaiting_input: the tool's question (message, source, schema: a flat form)"),
    answer: open
      .optional()
      .describe('the answer given to the question: action accept (with content), decline or cancel; by whom'),
    submitted: open.optional(),
    result: toolResult.optional(),
    createdAt: int,
    updatedAt: int,
    expiresAt: int.optional(),
    resolvedAt: int.optional(),
  }),
);

export const callList = z.object({ calls: z.array(callRecord), nextBefore: int.optional() });

export const decisionAnswer = named(
  'DecisionAnswer',
  z.object({ callId: z.string(), status: callStatus, decision: open }),
);

export const answerReply = named('AnswerReply', z.object({ callId: z.string(), status: callStatus, answer: open }));

export const inboxMessage = named(
  'InboxMessage',
  z.object({
    id: int,
    agentId: z.string(),
    kind: z.enum(['tool_result', 'message']),
    runId: z.string().optional(),
    callId: z.string().optional(),
    tool: z.string().optional(),
    result: z.unknown().optional(),
    error: z.string().optional(),
    spaceId: z.string().optional(),
    message: spaceMessage.optional(),
    createdAt: int,
    ackedAt: int.optional(),
    cycleId: z.string().optional(),
  }),
  'kind tool_result: a late result (runId, callId, tool, result or error); kind message: a message posted in a space (spaceId, message)',
);

export const inboxList = z.object({ messages: z.array(inboxMessage) });

export const cycleAnswer = named(
  'Cycle',
  z.object({
    cycleId: z.string().nullable(),
    messages: z.array(inboxMessage),
    leaseExpiresAt: int
      .optional()
      .describe('epoch ms: not done by then, the messages go to the next cycle (a heartbeat extends it)'),
  }),
  'cycleId null and no messages when the inbox stayed empty',
);
export const ackAnswer = z.object({ acknowledged: int });

export const executionList = z.object({
  entries: z.array(z.object({ callId: z.string(), tool: z.string(), status: z.string() })),
  nextBefore: int.optional(),
});
