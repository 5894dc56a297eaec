// Request bodies of the gateway's routes; the schemas in schemas/bodies.ts parse to exactly these.
import type { ApprovalScope, ElicitationAnswer } from '@toolbelt/core';

/** POST /api/runs/:runId/tool-calls */
export interface CallBody {
  agentId: string;
  name: string;
  input?: Record<string, unknown> | string;
  callId?: string;
  sessionId?: string;
  model?: string;
  /** Where in the conversation the call comes from (the task, what the model said): shown to whoever approves it. */
  context?: string;
}

/** POST /api/runs/:runId/tool-results: exactly one of result or error. */
export interface ResultBody {
  callId: string;
  result?: unknown;
  error?: string;
  /** The space the answer is given in: refused when the call was posted to another space. */
  spaceId?: string;
}

/** POST /api/tool-calls/:callId/approve */
export interface ApproveBody {
  scope?: ApprovalScope;
}

/** POST /api/tool-calls/:callId/reject: the message reaches the model. */
export interface RejectBody {
  message?: string;
}

/**
 * POST /api/tool-calls/:callId/answer: the person's answer to the call's question. accept with the
 * form's values (fields left out take their defaults), decline, or cancel.
 */
export type AnswerBody = ElicitationAnswer;

/** POST /api/agents/:agentId/inbox/ack */
export interface AckBody {
  ids: number[];
}
