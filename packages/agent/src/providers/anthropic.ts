// Anthropic Messages API through the official SDK, streamed.
import type Anthropic from '@anthropic-ai/sdk';
import type { ContentBlockParam, MessageParam, Tool as AnthropicTool } from '@anthropic-ai/sdk/resources/messages';
import { lazy } from './lazy.js';
import { reaching } from './reach.js';
import type {
  AgentMessage,
  ModelContent,
  ModelProvider,
  ModelRequest,
  ModelTurn,
  StopReason,
  ToolCallPart,
  ModelTool,
} from '../types.js';

export interface AnthropicOptions {
  model: string;
  /** Default: the SDK's (ANTHROPIC_API_KEY). */
  apiKey?: string;
  baseURL?: string;
  maxTokens?: number;
  /** An SDK client of your own; `apiKey` and `baseURL` are then ignored. */
  client?: Anthropic;
}

const STOPS: Record<string, StopReason> = {
  end_turn: 'end',
  stop_sequence: 'end',
  tool_use: 'tool_use',
  max_tokens: 'max_tokens',
};

export function anthropicModel(opts: AnthropicOptions): ModelProvider {
  const client = lazy(async () => {
    if (opts.client) return opts.client;
    const { default: Sdk } = await import('@anthropic-ai/sdk');
    return new Sdk({
      ...(opts.apiKey ? { apiKey: opts.apiKey } : {}),
      ...(opts.baseURL ? { baseURL: opts.baseURL } : {}),
    });
  });
  return {
    provider: 'anthropic',
    model: opts.model,
    async turn(req: ModelRequest): Promise<ModelTurn> {
      const sdk = await client();
      return reaching(sdk.baseURL, req.signal, () => messagesTurn(sdk, opts, req));
    },
  };
}

async function messagesTurn(sdk: Anthropic, opts: AnthropicOptions, req: ModelRequest): Promise<ModelTurn> {
  const stream = sdk.messages.stream(
    {
      model: opts.model,
      max_tokens: req.maxTokens ?? opts.maxTokens ?? 8192,
      ...(req.system ? { system: req.system } : {}),
      messages: toMessages(req.messages),
      ...(req.tools.length ? { tools: req.tools.map(toTool) } : {}),
    },
    { signal: req.signal },
  );
  if (req.onText) stream.on('text', (delta) => req.onText!(delta));
  const message = await stream.finalMessage();
  const toolCalls: ToolCallPart[] = [];
  let text = '';
  for (const block of message.content) {
    if (block.type === 'text') text += block.text;
    else if (block.type === 'tool_use') toolCalls.push({ id: block.id, name: block.name, input: block.input });
  }
  return {
    message: { role: 'assistant', text, toolCalls, native: { provider: 'anthropic', value: message.content } },
    stop: STOPS[message.stop_reason ?? ''] ?? 'other',
    usage: { inputTokens: message.usage.input_tokens, outputTokens: message.usage.output_tokens },
  };
}

function toTool(tool: ModelTool): AnthropicTool {
  return {
    name: tool.name,
    description: tool.description,
    input_schema: tool.jsonSchema as AnthropicTool['input_schema'],
  };
}

function toMessages(messages: readonly AgentMessage[]): MessageParam[] {
  return messages.map((m): MessageParam => {
    if (m.role === 'user') return { role: 'user', content: m.content };
    if (m.role === 'assistant') {
      if (m.native?.provider === 'anthropic')
        return { role: 'assistant', content: m.native.value as ContentBlockParam[] };
      const content: ContentBlockParam[] = m.text ? [{ type: 'text', text: m.text }] : [];
      for (const c of m.toolCalls) content.push({ type: 'tool_use', id: c.id, name: c.name, input: c.input });
      return { role: 'assistant', content };
    }
    return {
      role: 'user',
      content: m.results.map((r) => ({
        type: 'tool_result',
        tool_use_id: r.callId,
        content: r.content.map(toBlock),
        is_error: r.status !== 'success',
      })),
    };
  });
}

function toBlock(
  c: ModelContent,
): { type: 'text'; text: string } | { type: 'image'; source: { type: 'base64'; media_type: any; data: string } } {
  return c.type === 'text' ? c : { type: 'image', source: { type: 'base64', media_type: c.mimeType, data: c.data } };
}
