// toolbelt's tools as OpenAI Agents SDK function tools. A call the policy would ask about uses the
// SDK's own approval flow by default: the run stops with an interruption, and `state.approve` or
// `state.reject(item, { message })` answers it before the run resumes.
import { tool, type FunctionTool, type ToolOutputImage, type ToolOutputText } from '@openai/agents';
import type { Executor, Tool, ToolResult } from '@toolbelt/core';
import { approvedBy, callRequest, policyAsks, selectTools, type AdapterOptions } from '../shared/options.js';
import { resultText } from '../shared/text.js';

export interface OpenaiAgentsToolsOptions extends AdapterOptions {
  /**
   * Who asks the person about a call the policy would ask about:
   * - `sdk` (default): the SDK's flow (`needsApproval`, the run's `interruptions`, `state.approve` / `state.reject`).
   * - `toolbelt`: the executor's approver for `origin`, while the call waits.
   */
  approval?: 'sdk' | 'toolbelt';
}

/** The executor's tools as Agents SDK `FunctionTool`s (strict mode off: toolbelt validates the input). */
export function openaiAgentsTools(executor: Executor, options: OpenaiAgentsToolsOptions = {}): FunctionTool[] {
  return selectTools(executor, options).map((t) => agentsTool(executor, t, options));
}

/** The SDK's type for a non-strict schema; the value handed over is the tool's own JSON Schema, unchanged. */
type NonStrictSchema = {
  type: 'object';
  properties: Record<string, Record<string, unknown>>;
  required: string[];
  additionalProperties: true;
};

function agentsTool(executor: Executor, t: Tool, options: OpenaiAgentsToolsOptions): FunctionTool {
  const viaSdk = (options.approval ?? 'sdk') === 'sdk';
  return tool({
    name: t.name,
    description: t.description,
    parameters: t.jsonSchema as unknown as NonStrictSchema,
    strict: false,
    ...(viaSdk
      ? {
          needsApproval: (_ctx: unknown, input: unknown, callId?: string) =>
            policyAsks(executor, callRequest(options, t.name, input, callId ? { callId } : {})),
        }
      : {}),
    execute: async (input, _ctx, details) => {
      const callId = details?.toolCall?.callId;
      const result = await executor.call(
        callRequest(options, t.name, input, {
          ...(callId ? { callId } : {}),
          ...(details?.signal ? { signal: details.signal } : {}),
          // The SDK runs a call the policy asks about only once its person approved it.
          ...(viaSdk ? { approver: approvedBy('openai-agents') } : {}),
        }),
      );
      return toolOutput(result);
    },
  }) as unknown as FunctionTool;
}

/** Text, or text and images as the SDK's tool output items. */
export function toolOutput(result: ToolResult): string | (ToolOutputText | ToolOutputImage)[] {
  if (result.status === 'error' || !result.content.some((b) => b.type === 'image')) return resultText(result);
  return result.content.map((b) =>
    b.type === 'image'
      ? { type: 'image' as const, image: { data: b.data, mediaType: b.mimeType } }
      : { type: 'text' as const, text: b.type === 'text' ? b.text : JSON.stringify(b.json, null, 2) },
  );
}
