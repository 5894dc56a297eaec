// A tool's question to a person over HTTP (an MCP server's elicitation during a gateway call): the
// question is kept on the call (status awaiting_input, listed by GET /api/tool-calls and told as
// an input.requested event) and the call parks until POST /api/tool-calls/:callId/answer.
import type {
  ElicitationAnswer,
  ElicitationRequest,
  ElicitationSchema,
  ElicitationValue,
  Elicitor,
} from '@toolbelt/core';
import type { AnswerReply, InputAnswer } from '@toolbelt/protocol';
import { withDefaults } from '@toolbelt/core';
import type { EventRecorder } from '../events/recorder.js';
import { ApiError } from '../http/errors.js';
import type { CallRecord, GatewayStore } from '../store/index.js';
import type { Waiters } from '../waiters.js';

export function httpElicitor(store: GatewayStore, waiters: Waiters, recorder: EventRecorder): Elicitor {
  return async (question, signal) => {
    const ask = async () => {
      const now = Date.now();
      if (!(await store.requestInput(question.callId, question, now))) return false;
      // Published after the store has the question, so a person answering at once finds it.
      recorder.publish({
        type: 'input.requested',
        ts: now,
        sessionId: question.sessionId,
        callId: question.callId,
        tool: question.tool,
        question,
        ...(question.runId ? { runId: question.runId } : {}),
        ...(question.agentId ? { agentId: question.agentId } : {}),
      });
      return true;
    };
    const answered = async () => {
      const call = await store.getCall(question.callId);
      return call?.answer && call.status !== 'awaiting_input' ? withoutBy(call.answer) : undefined;
    };
    // A call the store does not have (not made over HTTP) has nobody to ask here.
    return (
      (await waiters.forPerson(`input.answered:${question.callId}`, signal, ask, answered)) ?? { action: 'decline' }
    );
  };
}

function withoutBy(answer: InputAnswer): ElicitationAnswer {
  return answer.action === 'accept' ? { action: 'accept', content: answer.content } : { action: answer.action };
}

/** Records a person's answer to the question a call waits on. */
export async function answer(
  store: GatewayStore,
  recorder: EventRecorder,
  call: CallRecord,
  given: InputAnswer,
): Promise<AnswerReply> {
  const question = call.status === 'awaiting_input' ? call.question : undefined;
  const checked =
    question && given.action === 'accept' ? { ...given, content: checkContent(question, given.content) } : given;
  const now = Date.now();
  const out = await store.answerInput(call.callId, checked, now);
  if (!out.ok) {
    if (out.reason === 'not_found') throw new ApiError(404, 'NOT_FOUND', `no call ${call.callId}`);
    const status = out.call?.status ?? call.status;
    throw new ApiError(409, 'CONFLICT', `call ${call.callId} is not waiting for an answer; its status is "${status}"`);
  }
  recorder.publish({
    type: 'input.answered',
    ts: now,
    sessionId: call.sessionId,
    runId: call.runId,
    agentId: call.agentId,
    callId: call.callId,
    tool: call.tool,
    action: checked.action,
    ...(checked.by ? { by: checked.by } : {}),
  });
  return { callId: call.callId, status: out.call.status, answer: checked };
}

/** The answer's content against the question's form: defaults filled in, every field of the right kind. */
function checkContent(
  question: ElicitationRequest,
  content: Record<string, ElicitationValue>,
): Record<string, ElicitationValue> {
  const schema: ElicitationSchema = question.schema;
  const full = withDefaults(schema, content);
  const problems: string[] = [];
  for (const key of schema.required ?? []) if (full[key] === undefined) problems.push(`"${key}" is required`);
  for (const [key, value] of Object.entries(full)) {
    const field = schema.properties[key];
    if (!field)
      problems.push(`"${key}" is not a field of this form (fields: ${Object.keys(schema.properties).join(', ')})`);
    else {
      const wrong = fieldProblem(field, value);
      if (wrong) problems.push(`"${key}" ${wrong}`);
    }
  }
  if (problems.length)
    throw new ApiError(400, 'INVALID_PARAMS', `the answer does not fit the question's form: ${problems.join('; ')}`);
  return full;
}

function fieldProblem(field: ElicitationSchema['properties'][string], value: unknown): string | undefined {
  const choices = field.enum ?? field.oneOf?.map((o) => o.const);
  switch (field.type) {
    case 'boolean':
      return typeof value === 'boolean' ? undefined : 'must be true or false';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) ? undefined : 'must be a number';
    case 'integer':
      return Number.isInteger(value) ? undefined : 'must be a whole number';
    case 'array': {
      const allowed = field.items?.enum ?? field.items?.anyOf?.map((o) => o.const);
      if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) return 'must be a list of strings';
      const bad = allowed ? value.filter((v) => !allowed.includes(v)) : [];
      return bad.length ? `has ${bad.join(', ')}, not among ${allowed!.join(', ')}` : undefined;
    }
    default:
      if (typeof value !== 'string') return 'must be text';
      return choices && !choices.includes(value) ? `must be one of ${choices.join(', ')}` : undefined;
  }
}
