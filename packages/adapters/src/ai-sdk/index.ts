// toolbelt's tools as a Vercel AI SDK tool set for generateText / streamText. Every call runs
// through the Executor; a call the policy would ask about uses the SDK's approval flow by default.
import type { Executor, Tool as ToolbeltTool, ToolResult } from '@toolbelt/core';
import { jsonSchema, tool, type Tool, type ToolSet } from 'ai';
import { approvedBy, callRequest, policyAsks, selectTools, type AdapterOptions } from '../shared/options.js';
import { toModelOutput } from './output.js';

export { toModelOutput };

export interface AiSdkToolsOptions extends AdapterOptions {
  /**
   * Who asks the person about a call the policy would ask about:
   * - `sdk` (default): the SDK's own flow. Such a tool call comes back as a `tool-approval-request`;
   *   answer it with a `tool-approval-response` in the next messages. A denial reaches the model as the SDK's denied result.
   * - `toolbelt`: the executor's approver for `origin` (a terminal prompt, the gateway, a callback) asks while the tool call waits.
   */
  approval?: 'sdk' | 'toolbelt';
}

/** The executor's tools as an AI SDK `ToolSet`; each tool's output is the whole toolbelt ToolResult. */
export function aiSdkTools(executor: Executor, options: AiSdkToolsOptions = {}): ToolSet {
  const set: ToolSet = {};
  for (const t of selectTools(executor, options)) set[t.name] = aiSdkTool(executor, t, options);
  return set;
}

function aiSdkTool(executor: Executor, t: ToolbeltTool, options: AiSdkToolsOptions): Tool<Record<string, unknown>, ToolResult> {
  const viaSdk = (options.approval ?? 'sdk') === 'sdk';
  return tool<Record<string, unknown>, ToolResult>({
    description: t.description,
    ...(t.title ? { title: t.title } : {}),
    inputSchema: jsonSchema<Record<string, unknown>>(t.jsonSchema as Parameters<typeof jsonSchema>[0]),
    ...(viaSdk ? { needsApproval: (input, { toolCallId }) => policyAsks(executor, callRequest(options, t.name, input, { callId: toolCallId })) } : {}),
    execute: (input, { toolCallId, abortSignal }) =>
      executor.call(
        callRequest(options, t.name, input, {
          callId: toolCallId,
          ...(abortSignal ? { signal: abortSignal } : {}),
          // The SDK runs a call the policy asks about only once its person approved it.
          ...(viaSdk ? { approver: approvedBy('ai-sdk') } : {}),
        }),
      ),
    toModelOutput: ({ output }) => toModelOutput(output),
  });
}
