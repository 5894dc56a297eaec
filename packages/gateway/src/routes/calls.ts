// Calling tools, submitting results from outside, reading calls back, a person's decisions and an
// agent's inbox; each route hands its input to one domain function.
import type { Domain } from '../domain/context.js';
import { decide } from '../domain/approvals.js';
import { answer } from '../domain/questions.js';
import { callTool, listCalls, visibleCall } from '../domain/calls.js';
import { ackInbox, readInbox } from '../domain/inbox.js';
import { submitResult } from '../domain/results.js';
import { intParam, listParam } from '../http/body.js';
import { ApiError } from '../http/errors.js';
import { route, type Router } from '../http/route.js';
import { clientSignal } from '../http/signal.js';
import { jsonOfResult } from '../json.js';
import { CALL_STATUSES, type CallStatus } from '../store/index.js';

function statuses(raw: string[] | undefined): CallStatus[] | undefined {
  const bad = raw?.filter((s) => !CALL_STATUSES.includes(s as CallStatus));
  if (bad?.length)
    throw new ApiError(400, 'BAD_REQUEST', `unknown status ${bad.join(', ')}; use any of ${CALL_STATUSES.join(', ')}`);
  return raw as CallStatus[] | undefined;
}

/** Calling tools, submitting results from outside, and reading calls back. */
export function callRoutes(r: Router, d: Domain): void {
  route(r, 'callTool', async (c, { params, body }) => {
    const { status, result } = await callTool(d, c.var.principal, params.runId, body, clientSignal(c));
    // The store has serialized this result already; send that text. (A fresh headers object: the
    // adapter adds Content-Length to it.)
    return c.body(jsonOfResult(result), status, { 'content-type': 'application/json' });
  });

  route(r, 'submitResult', async (c, { params, body }) => {
    const submission = body.error !== undefined ? { error: body.error } : { result: body.result };
    return submitResult(d, c.var.principal, params.runId, body.callId, submission, body.spaceId);
  });

  route(r, 'listCalls', async (c) => {
    const q = c.req.query();
    const filter = {
      limit: intParam(c, 'limit', 50, 500) || 50,
      ...(q.runId ? { runId: q.runId } : {}),
      ...(q.agentId ? { agentId: q.agentId } : {}),
      ...(q.tool ? { tool: q.tool } : {}),
      ...(q.before ? { before: intParam(c, 'before', 0, Number.MAX_SAFE_INTEGER) } : {}),
    };
    const s = statuses(listParam(c, 'status'));
    return listCalls(d, c.var.principal, s ? { ...filter, statuses: s } : filter);
  });

  route(r, 'getCall', (c, { params }) => visibleCall(d, c.var.principal, params.callId));
}

/** A person's approve, reject or answer for a call waiting on one. */
export function decisionRoutes(r: Router, d: Domain): void {
  route(r, 'approveCall', async (c, { params, body }) => {
    const call = await visibleCall(d, c.var.principal, params.callId);
    return decide(d.store, call, { outcome: 'approve', scope: body.scope ?? 'once', by: c.var.principal.name });
  });

  route(r, 'rejectCall', async (c, { params, body }) => {
    const call = await visibleCall(d, c.var.principal, params.callId);
    const decision = body.message
      ? { outcome: 'reject' as const, message: body.message, by: c.var.principal.name }
      : { outcome: 'reject' as const, by: c.var.principal.name };
    return decide(d.store, call, decision);
  });

  route(r, 'answerQuestion', async (c, { params, body }) => {
    const call = await visibleCall(d, c.var.principal, params.callId);
    return answer(d.store, d.recorder, call, { ...body, by: c.var.principal.name });
  });
}

export function inboxRoutes(r: Router, d: Domain): void {
  route(r, 'readInbox', (c, { params }) => {
    const includeAcked = ['1', 'true'].includes(c.req.query('includeAcked') ?? '');
    const after = intParam(c, 'after', 0, Number.MAX_SAFE_INTEGER);
    const limit = intParam(c, 'limit', 100, 1000) || 100;
    return readInbox(d, c.var.principal, params.agentId, { after, limit, includeAcked });
  });

  route(r, 'ackInbox', (c, { params, body }) => ackInbox(d, c.var.principal, params.agentId, body.ids));
}
