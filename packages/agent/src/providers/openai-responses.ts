// OpenAI Responses through the official SDK, streamed. The model's output items are replayed as
// they came (reasoning items included), and a tool result may carry images.
import type OpenAI from 'openai';
import type { FunctionTool, ResponseInputItem, ResponseOutputItem } from 'openai/resources/responses/responses';
import { parseArguments } from '../content.js';
import type {
  AgentMessage,
  ModelContent,
  ModelProvider,
  ModelRequest,
  ModelTurn,
  ToolCallPart,
  ModelTool,
} from '../types.js';
import { dataUrl, openaiClient, type OpenAIOptions } from './openai-client.js';
import { reaching } from './reach.js';

export function openaiResponsesModel(opts: OpenAIOptions): ModelProvider {
  const client = openaiClient(opts);
  return {
    provider: 'openai-responses',
    model: opts.model,
    async turn(req: ModelRequest): Promise<ModelTurn> {
      const sdk = await client();
      return reaching(sdk.baseURL, req.signal, () => responsesTurn(sdk, opts, req));
    },
  };
}

async function responsesTurn(sdk: OpenAI, opts: OpenAIOptions, req: ModelRequest): Promise<ModelTurn> {
  const stream = sdk.responses.stream(
    {
      model: opts.model,
      input: toInput(req.messages),
      ...(req.system ? { instructions: req.system } : {}),
      ...(req.tools.length ? { tools: req.tools.map(toTool) } : {}),
      ...((req.maxTokens ?? opts.maxTokens) ? { max_output_tokens: req.maxTokens ?? opts.maxTokens } : {}),
    },
    { signal: req.signal },
  );
  if (req.onText) stream.on('response.output_text.delta', (e) => req.onText!(e.delta));
  const response = await stream.finalResponse();
  const toolCalls: ToolCallPart[] = [];
  for (const item of response.output)
    if (item.type === 'function_call')
      toolCalls.push({ id: item.call_id, name: item.name, input: parseArguments(item.arguments) });
  const stop = toolCalls.length
    ? 'tool_use'
    : response.status === 'incomplete'
      ? 'max_tokens'
      : response.status === 'completed'
        ? 'end'
        : 'other';
  return {
    message: {
      role: 'assistant',
      text: response.output_text,
      toolCalls,
      native: { provider: 'openai-responses', value: response.output },
    },
    stop,
    ...(response.usage
      ? { usage: { inputTokens: response.usage.input_tokens, outputTokens: response.usage.output_tokens } }
      : {}),
  };
}

function toTool(tool: ModelTool): FunctionTool {
  return {
    type: 'function',
    name: tool.name,
    description: tool.description,
    parameters: tool.jsonSchema,
    strict: false,
  };
}

function toInput(messages: readonly AgentMessage[]): ResponseInputItem[] {
  const out: ResponseInputItem[] = [];
  for (const m of messages) {
    if (m.role === 'user') out.push({ role: 'user', content: m.content });
    else if (m.role === 'assistant') {
      if (m.native?.provider === 'openai-responses')
        out.push(...(m.native.value as ResponseOutputItem[] as ResponseInputItem[]));
      else {
        if (m.text) out.push({ role: 'assistant', content: m.text });
        for (const c of m.toolCalls)
          out.push({ type: 'function_call', call_id: c.id, name: c.name, arguments: JSON.stringify(c.input) });
      }
    } else
      for (const r of m.results)
        out.push({ type: 'function_call_output', call_id: r.callId, output: toOutput(r.content) });
  }
  return out;
}

function toOutput(content: ModelContent[]): Extract<ResponseInputItem, { type: 'function_call_output' }>['output'] {
  if (content.every((c) => c.type === 'text')) return content.map((c) => (c as { text: string }).text).join('\n');
  return content.map((c) =>
    c.type === 'text'
      ? { type: 'input_text' as const, text: c.text }
      : { type: 'input_image' as const, image_url: dataUrl(c), detail: 'auto' as const },
  );
}
