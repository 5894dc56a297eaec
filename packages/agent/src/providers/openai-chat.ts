// OpenAI Chat Completions through the official SDK, streamed. Tool messages carry text only, so a
// tool result's images follow in one user message.
import type OpenAI from 'openai';
import type {
  ChatCompletionContentPart,
  ChatCompletionMessageParam,
  ChatCompletionTool,
} from 'openai/resources/chat/completions';
import { contentText, parseArguments } from '../content.js';
import type {
  AgentMessage,
  ModelProvider,
  ModelRequest,
  ModelTurn,
  StopReason,
  ToolCallPart,
  ModelTool,
} from '../types.js';
import { dataUrl, openaiClient, type OpenAIOptions } from './openai-client.js';
import { reaching } from './reach.js';

const STOPS: Record<string, StopReason> = { stop: 'end', tool_calls: 'tool_use', length: 'max_tokens' };

export function openaiChatModel(opts: OpenAIOptions): ModelProvider {
  const client = openaiClient(opts);
  return {
    provider: 'openai',
    model: opts.model,
    async turn(req: ModelRequest): Promise<ModelTurn> {
      const sdk = await client();
      return reaching(sdk.baseURL, req.signal, () => chatTurn(sdk, opts, req));
    },
  };
}

async function chatTurn(sdk: OpenAI, opts: OpenAIOptions, req: ModelRequest): Promise<ModelTurn> {
  const stream = sdk.chat.completions.stream(
    {
      model: opts.model,
      messages: toMessages(req.system, req.messages),
      ...(req.tools.length ? { tools: req.tools.map(toTool) } : {}),
      ...((req.maxTokens ?? opts.maxTokens) ? { max_completion_tokens: req.maxTokens ?? opts.maxTokens } : {}),
      stream_options: { include_usage: true },
    },
    { signal: req.signal },
  );
  // Some local servers (llama.cpp, LM Studio, Ollama) leave out the role: it is the assistant's.
  stream.on('chunk', (_chunk, snapshot) => {
    for (const choice of snapshot.choices) choice.message.role ??= 'assistant';
  });
  if (req.onText) stream.on('content', (delta) => req.onText!(delta));
  const completion = await stream.finalChatCompletion();
  const choice = completion.choices[0];
  const toolCalls: ToolCallPart[] = (choice?.message.tool_calls ?? []).flatMap((c) =>
    c.type === 'function' ? [{ id: c.id, name: c.function.name, input: parseArguments(c.function.arguments) }] : [],
  );
  return {
    message: { role: 'assistant', text: choice?.message.content ?? '', toolCalls },
    stop: STOPS[choice?.finish_reason ?? ''] ?? 'other',
    ...(completion.usage
      ? { usage: { inputTokens: completion.usage.prompt_tokens, outputTokens: completion.usage.completion_tokens } }
      : {}),
  };
}

function toTool(tool: ModelTool): ChatCompletionTool {
  return {
    type: 'function',
    function: { name: tool.name, description: tool.description, parameters: tool.jsonSchema },
  };
}

function toMessages(system: string | undefined, messages: readonly AgentMessage[]): ChatCompletionMessageParam[] {
  const out: ChatCompletionMessageParam[] = system ? [{ role: 'system', content: system }] : [];
  for (const m of messages) {
    if (m.role === 'user') out.push({ role: 'user', content: m.content });
    else if (m.role === 'assistant') {
      out.push({
        role: 'assistant',
        content: m.text || null,
        ...(m.toolCalls.length
          ? {
              tool_calls: m.toolCalls.map((c) => ({
                id: c.id,
                type: 'function' as const,
                function: { name: c.name, arguments: JSON.stringify(c.input) },
              })),
            }
          : {}),
      });
    } else {
      const images: ChatCompletionContentPart[] = [];
      for (const r of m.results) {
        out.push({ role: 'tool', tool_call_id: r.callId, content: contentText(r.content) });
        for (const c of r.content)
          if (c.type === 'image') images.push({ type: 'image_url', image_url: { url: dataUrl(c) } });
      }
      if (images.length)
        out.push({
          role: 'user',
          content: [{ type: 'text', text: 'The images the tool results name, in order:' }, ...images],
        });
    }
  }
  return out;
}
