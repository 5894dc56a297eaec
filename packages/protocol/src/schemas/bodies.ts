// Request bodies of the API, as Zod schemas: strict, so a misspelt field is reported, not ignored.
import { z } from 'zod';
import type {
  AckBody,
  AnswerBody,
  ApproveBody,
  CallBody,
  MemberBody,
  MessageBody,
  RejectBody,
  ResultBody,
  SpaceBody,
} from '../wire/index.js';

const text = (max: number) =>
  z
    .string()
    .min(1)
    .max(max)
    .regex(/^[^\u0000-\u001f]*$/, 'must not contain control characters');

/** Free text: any character but NUL, which PostgreSQL cannot store (refused on both stores alike). */
const freeText = (max: number) =>
  z
    .string()
    .max(max)
    .regex(/^[^\u0000]*$/, 'must not contain NUL characters');

const CALL_ID = /^[A-Za-z0-9_.:-]{1,128}$/;
const callId = z.string().regex(CALL_ID, 'use 1-128 letters, digits, "_", "-", "." or ":"');

export const callBody = z.strictObject({
  agentId: text(200),
  name: text(200),
  input: z
    .union([z.record(z.string(), z.unknown()), z.string()])
    .optional()
    .describe('the arguments (a JSON object, or a string holding one)'),
  callId: callId.optional().describe('your id for the call (e.g. the model tool_call id); one is made when absent'),
  sessionId: text(200)
    .optional()
    .describe(
      'scope of "session" approvals; default the agentId. Belongs to the agent that first used it: another agent sending it gets 403 SESSION_NOT_YOURS',
    ),
  model: text(200).optional(),
  context: freeText(2000)
    .optional()
    .describe('where in the conversation the call comes from; shown to whoever approves it'),
});

export const resultBody = z
  .strictObject({
    callId,
    result: z.unknown().optional(),
    error: freeText(20_000).min(1).optional(),
    spaceId: text(200).optional().describe('the space the answer is given in'),
  })
  .describe('exactly one of result or error')
  .refine((b) => ('result' in b && b.result !== undefined) !== (b.error !== undefined), {
    message: 'send exactly one of `result` (any JSON) or `error` (a message saying what went wrong)',
  });

export const spaceBody = z.strictObject({ name: text(200), id: text(200).optional() });
export const memberBody = z.strictObject({ memberId: text(200), kind: z.enum(['person', 'agent']) });
export const messageBody = z.strictObject({ senderId: text(200), text: freeText(100_000).min(1) });

export const approveBody = z.strictObject({ scope: z.enum(['once', 'session', 'always']).optional() });
export const rejectBody = z.strictObject({
  message: freeText(4000).optional().describe('for the model: why, and what to do instead'),
});
const fieldValue = z.union([
  z.string().max(20_000),
  z.number(),
  z.boolean(),
  z.array(z.string().max(20_000)).max(1000),
]);
export const answerBody = z.discriminatedUnion('action', [
  z.strictObject({ action: z.literal('accept'), content: z.record(z.string().max(200), fieldValue) }),
  z.strictObject({ action: z.literal('decline') }),
  z.strictObject({ action: z.literal('cancel') }),
]);
export const ackBody = z.strictObject({ ids: z.array(z.number().int().positive()).min(1).max(1000) });

// Each schema parses to exactly the body type of the wire contract (wire/bodies.ts), which the client
// SDK and the console send: a field or type that changes on one side only fails to compile here.
type Same<A, B> = [A, keyof A] extends [B, keyof B] ? ([B, keyof B] extends [A, keyof A] ? true : false) : false;
type Holds<T extends true> = T;
type _BodiesMatchTheWire = [
  Holds<Same<z.output<typeof callBody>, CallBody>>,
  Holds<Same<z.output<typeof resultBody>, ResultBody>>,
  Holds<Same<z.output<typeof approveBody>, ApproveBody>>,
  Holds<Same<z.output<typeof rejectBody>, RejectBody>>,
  Holds<Same<z.output<typeof ackBody>, AckBody>>,
  Holds<Same<z.output<typeof answerBody>, AnswerBody>>,
  Holds<Same<z.output<typeof spaceBody>, SpaceBody>>,
  Holds<Same<z.output<typeof memberBody>, MemberBody>>,
  Holds<Same<z.output<typeof messageBody>, MessageBody>>,
];
