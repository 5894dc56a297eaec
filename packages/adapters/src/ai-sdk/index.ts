// toolbelt's tools as a Vercel AI SDK tool set for generateText / streamText. Every call runs
// through the Executor; a call the policy would ask about uses the SDK's approval flow by default.
import type { CallRequest, Executor, Tool as ToolbeltTool, ToolResult } from '@toolbelt/core';
import { jsonSchema, tool, type Tool, type ToolSet } from 'ai';
import { approvedBy, callRequest, policyAsks, selectTools, type AdapterOptions } from '../shared/options.js';
import { toModelOutput } from './output.js';
import { runWithOutput, type RunningOutput } from './preliminary.js';

export { toModelOutput, type RunningOutput };
export { aiSdkModel } from './model.js';

export interface AiSdkToolsOptions extends AdapterOptions {
  /**
   * Who asks the person about a call the policy would ask about:
   * - `sdk` (default): the SDK's own flow. Such a tool call comes back as a `tool-approval-request`;
   *   answer it with a `tool-approval-response` in the next messages. A denial reaches the model as the SDK's denied result.
   * - `toolbelt`: the executor's approver for `origin` (a terminal prompt, the gateway, a callback) asks while the tool call waits.
   */
  approval?: 'sdk' | 'toolbelt';
  /**
   * Stream what a tool prints while it runs (a shell command's output, progress) as the SDK's
   * preliminary tool results: `{ status: 'running', output, progress? }` parts with
   * `preliminary: true` in streamText's fullStream. The model still gets the final ToolResult only.
   */
  streamOutput?: boolean;
}

/** The executor's tools as an AI SDK `ToolSet`; each tool's output is the whole toolbelt ToolResult. */
export function aiSdkTools(executor: Executor, options: AiSdkToolsOptions = {}): ToolSet {
  const set: ToolSet = {};
  for (const t of selectTools(executor, options)) set[t.name] = aiSdkTool(executor, t, options);
  return set;
}

function aiSdkTool(
  executor: Executor,
  t: ToolbeltTool,
  options: AiSdkToolsOptions,
): Tool<Record<string, unknown>, ToolResult | RunningOutput> {
  const viaSdk = (options.approval ?? 'sdk') === 'sdk';
  const request = (input: Record<string, unknown>, toolCallId: string, abortSignal: AbortSignal | undefined) =>
    callRequest(options, t.name, input, {
      callId: toolCallId,
      ...(abortSignal ? { signal: abortSignal } : {}),
      // The SDK runs a call the policy asks about only once its person approved it.
      ...(viaSdk ? { approver: approvedBy('ai-sdk') } : {}),
    }) as CallRequest & { callId: string };
  return tool<Record<string, unknown>, ToolResult | RunningOutput>({
    description: t.description,
    ...(t.title ? { title: t.title } : {}),
    inputSchema: jsonSchema<Record<string, unknown>>(t.jsonSchema as Parameters<typeof jsonSchema>[0]),
    ...(viaSdk
      ? {
          needsApproval: (input, { toolCallId }) =>
            policyAsks(executor, callRequest(options, t.name, input, { callId: toolCallId })),
        }
      : {}),
    execute: options.streamOutput
      ? (input, { toolCallId, abortSignal }) => runWithOutput(executor, request(input, toolCallId, abortSignal))
      : (input, { toolCallId, abortSignal }) => executor.call(request(input, toolCallId, abortSignal)),
    // The final output is always the ToolResult; a running one never reaches the model.
    toModelOutput: ({ output }) =>
      output.status === 'running' ? { type: 'text', value: output.output } : toModelOutput(output),
  });
}
