// What every framework adapter shares: which tools to hand over, and the request each call makes.
// Calls always go through the Executor, so policy, approvals, the log and metrics stay toolbelt's.
import type { Approver, CallOrigin, CallRequest, Executor, ModelHandle, Tool, ToolFilter } from '@toolbelt/core';

export interface AdapterOptions {
  /** Which tools the framework gets: names, a category or a predicate (default: all). */
  tools?: ToolFilter;
  /** The session remembered "session" approvals and events belong to. Default `default`. */
  sessionId?: string;
  runId?: string;
  agentId?: string;
  /** The front end the calls are logged under; it picks the executor's approver. Default `library`. */
  origin?: CallOrigin;
  /** The framework's model, for tools that ask one (ctx.llm): `aiSdkModel(model)`, or any ModelHandle. */
  llm?: ModelHandle;
}

export function selectTools(executor: Executor, options: AdapterOptions): Tool[] {
  return executor.registry.list(options.tools ?? 'all');
}

export function callRequest(
  options: AdapterOptions,
  tool: string,
  input: unknown,
  extra: Partial<CallRequest> = {},
): CallRequest {
  const req: CallRequest = { tool, input, origin: options.origin ?? 'library', ...extra };
  if (options.sessionId) req.sessionId = options.sessionId;
  if (options.runId) req.runId = options.runId;
  if (options.agentId) req.agentId = options.agentId;
  if (options.llm) req.llm = options.llm;
  return req;
}

/** True when the policy would ask a person about this call (not when it allows or denies it). */
export async function policyAsks(executor: Executor, req: CallRequest): Promise<boolean> {
  const explained = await executor.explain(req);
  return explained.decision?.action === 'ask';
}

/**
 * For a call the framework's own approval flow let through: its person already said yes, so the
 * executor records the approval as theirs instead of asking again.
 */
export function approvedBy(framework: string): Approver {
  return async () => ({ outcome: 'approve', scope: 'once', by: framework });
}
