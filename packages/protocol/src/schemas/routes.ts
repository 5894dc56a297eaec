// The schemas of each route of the table, by the same key: the body the gateway reads (it refuses
// any other) and the JSON it answers. The OpenAPI document is generated from these; a test checks
// the gateway's real answers against them. Routes that answer a stream, text or a page have no answer
// schema.
import { z } from 'zod';
import type { RouteAnswer, RouteBody, RouteKey } from '../routes/index.js';
import {
  ackBody,
  answerBody,
  approveBody,
  callBody,
  memberBody,
  messageBody,
  rejectBody,
  resultBody,
  spaceBody,
} from './bodies.js';
import { groupList, metricsAnswer, whoAmI } from './console-shapes.js';
import {
  ackAnswer,
  answerReply,
  callList,
  callRecord,
  cycleAnswer,
  decisionAnswer,
  executionList,
  healthAnswer,
  inboxList,
  submitAnswer,
  toolList,
  toolResult,
} from './shapes.js';
import {
  agentPrompt,
  cycleDoneAnswer,
  cycleHeartbeatAnswer,
  memberList,
  messageList,
  noteList,
  postAnswer,
  space,
  spaceList,
} from './space-shapes.js';

export interface RouteSchemas {
  body?: z.ZodType;
  answer?: z.ZodType;
}

export const ROUTE_SCHEMAS = {
  health: { answer: healthAnswer },
  openapi: { answer: z.looseObject({ openapi: z.literal('3.1.0') }) },
  prometheus: {},
  listTools: { answer: toolList },
  events: {},
  executions: { answer: executionList },
  callTool: { body: callBody, answer: toolResult },
  submitResult: { body: resultBody, answer: submitAnswer },
  listCalls: { answer: callList },
  getCall: { answer: callRecord },
  approveCall: { body: approveBody, answer: decisionAnswer },
  rejectCall: { body: rejectBody, answer: decisionAnswer },
  answerQuestion: { body: answerBody, answer: answerReply },
  readInbox: { answer: inboxList },
  ackInbox: { body: ackBody, answer: ackAnswer },
  agentGoals: { answer: noteList('goals') },
  agentMemories: { answer: noteList('memories') },
  agentPlans: { answer: noteList('plans') },
  agentPrompt: { answer: agentPrompt },
  takeCycle: { answer: cycleAnswer },
  finishCycle: { answer: cycleDoneAnswer },
  heartbeatCycle: { answer: cycleHeartbeatAnswer },
  createSpace: { body: spaceBody, answer: space },
  listSpaces: { answer: spaceList },
  listMembers: { answer: memberList },
  addMember: { body: memberBody, answer: memberList },
  removeMember: { answer: memberList },
  postMessage: { body: messageBody, answer: postAnswer },
  listMessages: { answer: messageList },
  spaceEvents: {},
  consolePage: {},
  consoleAsset: {},
  whoAmI: { answer: whoAmI },
  metrics: { answer: metricsAnswer },
  groups: { answer: groupList },
} as const satisfies Record<RouteKey, RouteSchemas>;

// The table's types and these schemas cannot drift apart: a route's body schema parses to exactly
// its body type (a route without one reads none), and its answer type fits its answer schema.
type Schemas = typeof ROUTE_SCHEMAS;
type Same<A, B> = [A, keyof A] extends [B, keyof B] ? ([B, keyof B] extends [A, keyof A] ? true : false) : false;
type BodyFits<K extends RouteKey> = Schemas[K] extends { body: z.ZodType }
  ? Same<z.output<Schemas[K]['body']>, RouteBody<K>>
  : [RouteBody<K>] extends [never]
    ? true
    : false;
type AnswerFits<K extends RouteKey> = Schemas[K] extends { answer: z.ZodType }
  ? RouteAnswer<K> extends z.input<Schemas[K]['answer']>
    ? true
    : false
  : true;
type Holds<T extends Record<RouteKey, true>> = T;
// Checked where this package is built, and not part of its published types: a consumer's stricter
// options (exactOptionalPropertyTypes) would judge the same check by other rules.
type _SchemasMatchTheTable = [Holds<{ [K in RouteKey]: BodyFits<K> }>, Holds<{ [K in RouteKey]: AnswerFits<K> }>];
