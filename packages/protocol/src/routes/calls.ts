// Calling tools, submitting results from outside, reading calls back, and a person's decisions.
import type { ToolResult } from '@toolbelt/core';
import type {
  AnswerBody,
  AnswerReply,
  ApproveBody,
  CallBody,
  CallList,
  CallRecord,
  DecisionAnswer,
  RejectBody,
  ResultBody,
  SubmitAnswer,
} from '../wire/index.js';
import { io, type RouteSpec } from './spec.js';

const callId = { callId: 'the call' };
const undecidable = { '404': 'no such call', '409': 'not awaiting approval' };

export const CALL_ROUTES = {
  callTool: {
    method: 'POST',
    path: '/api/runs/:runId/tool-calls',
    role: 'call',
    summary: 'Call a tool',
    description:
      'Answered with the ToolResult. An async tool answers status "pending" at once; a waiting tool blocks up to its timeout.',
    params: { runId: 'the run (agent cycle) making the call' },
    errors: {
      '400': 'malformed body, or nested over 65 levels (INVALID_PARAMS)',
      '409': 'callId already used',
      '413': 'body too large',
    },
    resultErrors: {
      '404': 'unknown tool (a ToolResult with UNKNOWN_TOOL and suggestions)',
      '422': 'the input does not match the tool schema (INVALID_PARAMS)',
    },
    io: io<CallBody, ToolResult>(),
  },
  submitResult: {
    method: 'POST',
    path: '/api/runs/:runId/tool-results',
    role: ['submit', 'person'],
    summary:
      "Submit the result of an open call (role submit), or a person's answer to a space call (role person, a member of its space)",
    description:
      'A waiting call returns it to its agent at once; a pending call puts it in the agent inbox, exactly once. Its space message becomes complete (or error). With spaceId, a call posted to another space is refused (404).',
    params: { runId: 'the run the call was made in' },
    errors: {
      '400': 'malformed body, or nested over 65 levels (INVALID_PARAMS)',
      '404': 'no such call in this run (or not visible to this token)',
      '409': 'the call already has its result, or does not take submitted results',
      '410': 'the call expired',
    },
    io: io<ResultBody, SubmitAnswer>(),
  },
  listCalls: {
    method: 'GET',
    path: '/api/tool-calls',
    role: 'token',
    summary: 'List calls, newest first (those of the agents this token may act for)',
    query: {
      runId: { type: 'string', description: 'only this run' },
      agentId: { type: 'string', description: 'only this agent' },
      status: { type: 'list', description: 'comma-separated statuses', examples: ['waiting,pending'] },
      tool: { type: 'string', description: 'only this tool' },
      limit: { type: 'integer', description: '1-500, default 50' },
      before: { type: 'integer', description: 'the nextBefore of the previous page' },
    },
    errors: { '400': 'bad filter' },
    io: io<never, CallList>(),
  },
  getCall: {
    method: 'GET',
    path: '/api/tool-calls/:callId',
    role: 'token',
    summary: 'One call',
    params: callId,
    errors: { '404': 'no such call visible to this token' },
    io: io<never, CallRecord>(),
  },
  approveCall: {
    method: 'POST',
    path: '/api/tool-calls/:callId/approve',
    role: 'approve',
    summary: 'Approve a call awaiting approval (scope default once)',
    params: callId,
    errors: undecidable,
    io: io<ApproveBody, DecisionAnswer>(),
  },
  rejectCall: {
    method: 'POST',
    path: '/api/tool-calls/:callId/reject',
    role: 'approve',
    summary: 'Reject a call awaiting approval',
    params: callId,
    errors: undecidable,
    io: io<RejectBody, DecisionAnswer>(),
  },
  answerQuestion: {
    method: 'POST',
    path: '/api/tool-calls/:callId/answer',
    role: 'approve',
    summary: "Answer the question a call waits on (status awaiting_input: an MCP server's elicitation)",
    description:
      "accept with the form's values (fields left out take their defaults), decline or cancel; the call runs on",
    params: callId,
    errors: {
      '400': "the content does not fit the question's form",
      '404': 'no such call',
      '409': 'not waiting for an answer',
    },
    io: io<AnswerBody, AnswerReply>(),
  },
} as const satisfies Record<string, RouteSpec>;
