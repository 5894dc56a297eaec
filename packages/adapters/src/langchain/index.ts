// toolbelt's tools as LangChain structured tools. LangChain's core has no approval flow of its own,
// so a call the policy asks about is asked by the executor's approver for `origin` while it waits.
import { randomUUID } from 'node:crypto';
import { dispatchCustomEvent } from '@langchain/core/callbacks/dispatch';
import type { CallbackManagerForToolRun } from '@langchain/core/callbacks/manager';
import { patchConfig, type RunnableConfig } from '@langchain/core/runnables';
import { ToolMessage, type MessageContent } from '@langchain/core/messages';
import { DynamicStructuredTool, ToolInputParsingException, type ToolRunnableConfig } from '@langchain/core/tools';
import type { Executor, Tool, ToolResult } from '@toolbelt/core';
import { callRequest, selectTools, type AdapterOptions } from '../shared/options.js';
import { resultText } from '../shared/text.js';

export interface LangchainToolsOptions extends AdapterOptions {
  /**
   * Tell what a tool prints while it runs as LangChain custom events: `toolbelt.output`
   * (`{ callId, tool, stream, chunk }`) and `toolbelt.progress` (`{ callId, tool, progress?, total?,
   * message? }`), seen as `on_custom_event` in `streamEvents` and by callbacks' `handleCustomEvent`.
   */
  streamOutput?: boolean;
}

/**
 * The executor's tools as LangChain `DynamicStructuredTool`s. Invoked with a tool call, each returns
 * a `ToolMessage` whose content is what the model reads (a rejection's reason with the person's
 * words, an error's code and message, with status `error`) and whose artifact is the whole ToolResult.
 */
export function langchainTools(executor: Executor, options: LangchainToolsOptions = {}): DynamicStructuredTool[] {
  return selectTools(executor, options).map((t) => langchainTool(executor, t, options));
}

type ToolCallInput = { id?: string; name: string; args: unknown; type?: 'tool_call' };

/**
 * LangChain checks input against the schema itself and throws a bare "did not match expected
 * schema", which ends the caller's loop and never reaches the log. Input it refuses goes to the
 * executor anyway: its INVALID_PARAMS names each problem, is logged, and comes back as the result.
 */
class ExecutorTool extends DynamicStructuredTool {
  override async invoke(input: any, config?: ToolRunnableConfig): Promise<any> {
    try {
      return await super.invoke(input, config);
    } catch (err) {
      if (!(err instanceof ToolInputParsingException)) throw err;
      const call = isToolCall(input) ? input : undefined;
      return this.func(call ? call.args : input, undefined, {
        ...config,
        ...(call?.id ? { toolCall: { ...call, id: call.id } } : {}),
      } as ToolRunnableConfig);
    }
  }
}

function isToolCall(input: unknown): input is ToolCallInput {
  return (
    typeof input === 'object' &&
    input !== null &&
    'args' in input &&
    'name' in input &&
    ('id' in input || (input as ToolCallInput).type === 'tool_call')
  );
}

function langchainTool(executor: Executor, t: Tool, options: LangchainToolsOptions): DynamicStructuredTool {
  return new ExecutorTool({
    name: t.name,
    description: t.description,
    schema: t.jsonSchema,
    func: async (input: unknown, runManager?: CallbackManagerForToolRun, config?: ToolRunnableConfig) => {
      const toolCallId = config?.toolCall?.id;
      // Output is told by callId: a call made without a tool call gets one here.
      const callId = toolCallId ?? (options.streamOutput ? randomUUID() : undefined);
      // Events belong to this tool's run: its child callbacks, not the caller's config as given.
      const stopRelay = options.streamOutput
        ? relayOutput(executor, callId!, patchConfig(config, { callbacks: runManager?.getChild() }))
        : undefined;
      const result = await executor
        .call(
          callRequest(options, t.name, input, {
            ...(callId ? { callId } : {}),
            ...(config?.signal ? { signal: config.signal } : {}),
          }),
        )
        .finally(stopRelay);
      if (!toolCallId) return resultText(result);
      return new ToolMessage({
        content: messageContent(result),
        artifact: result,
        tool_call_id: toolCallId,
        name: t.name,
        status: result.status === 'success' || result.status === 'pending' ? 'success' : 'error',
      });
    },
  });
}

/** Dispatches the call's output and progress events as LangChain custom events; returns how to stop. */
function relayOutput(executor: Executor, callId: string, config: RunnableConfig): () => void {
  return executor.events.on((e) => {
    if (!('callId' in e) || e.callId !== callId) return;
    if (e.type === 'tool.output')
      void tell('toolbelt.output', { callId, tool: e.tool, stream: e.stream, chunk: e.chunk });
    else if (e.type === 'tool.progress')
      void tell('toolbelt.progress', {
        callId,
        tool: e.tool,
        progress: e.progress,
        total: e.total,
        message: e.message,
      });
  });
  // A listener that fails must not fail the call.
  function tell(name: string, payload: object): Promise<void> {
    return dispatchCustomEvent(name, payload, config).catch(() => {});
  }
}

/** Text, or text and images as LangChain's standard content blocks. */
export function messageContent(result: ToolResult): MessageContent {
  if (result.status === 'error' || !result.content.some((b) => b.type === 'image')) return resultText(result);
  return result.content.map((block) => {
    if (block.type === 'image') return { type: 'image', data: block.data, mimeType: block.mimeType };
    return { type: 'text', text: block.type === 'text' ? block.text : JSON.stringify(block.json, null, 2) };
  });
}
