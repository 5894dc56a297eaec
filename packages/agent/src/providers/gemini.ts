// Gemini through the official SDK (@google/genai), streamed. The model's parts are replayed as they
// came, so thought signatures go back with the calls they belong to.
import type { Content, FunctionDeclaration, GenerateContentResponse, GoogleGenAI, Part } from '@google/genai';
import { contentText } from '../content.js';
import { lazy } from './lazy.js';
import { reaching } from './reach.js';
import type {
  AgentMessage,
  ModelProvider,
  ModelRequest,
  ModelTurn,
  StopReason,
  ToolCallPart,
  ModelTool,
} from '../types.js';

export interface GeminiOptions {
  model: string;
  /** Default: GEMINI_API_KEY, else GOOGLE_API_KEY. */
  apiKey?: string;
  baseUrl?: string;
  maxTokens?: number;
  /** An SDK client of your own; `apiKey` and `baseUrl` are then ignored. */
  client?: GoogleGenAI;
}

/** Gemini may send a call without an id; ours are made up and never sent back. */
const MADE_UP = 'gemini-call-';
/** Where the SDK sends requests without a baseUrl (said when it cannot be reached). */
const GEMINI_URL = 'https://generativelanguage.googleapis.com';
const STOPS: Record<string, StopReason> = { STOP: 'end', MAX_TOKENS: 'max_tokens' };

export function geminiModel(opts: GeminiOptions): ModelProvider {
  const apiKey = opts.apiKey ?? process.env.GEMINI_API_KEY ?? process.env.GOOGLE_API_KEY;
  const client = lazy(async () => {
    if (opts.client) return opts.client;
    const { GoogleGenAI: Sdk } = await import('@google/genai');
    return new Sdk({
      ...(apiKey ? { apiKey } : {}),
      ...(opts.baseUrl ? { httpOptions: { baseUrl: opts.baseUrl } } : {}),
    });
  });
  let made = 0;
  return {
    provider: 'gemini',
    model: opts.model,
    turn: (req: ModelRequest) => reaching(opts.baseUrl ?? GEMINI_URL, req.signal, () => geminiTurn(req)),
  };

  async function geminiTurn(req: ModelRequest): Promise<ModelTurn> {
    const stream = await (
      await client()
    ).models.generateContentStream({
      model: opts.model,
      contents: toContents(req.messages),
      config: {
        ...(req.system ? { systemInstruction: req.system } : {}),
        ...(req.tools.length ? { tools: [{ functionDeclarations: req.tools.map(toDeclaration) }] } : {}),
        ...((req.maxTokens ?? opts.maxTokens) ? { maxOutputTokens: req.maxTokens ?? opts.maxTokens } : {}),
        ...(req.signal ? { abortSignal: req.signal } : {}),
      },
    });
    const { parts, finish, usage } = await collect(stream, req.onText);
    const toolCalls: ToolCallPart[] = parts.flatMap((p) =>
      p.functionCall
        ? [
            {
              id: p.functionCall.id ?? `${MADE_UP}${++made}`,
              name: p.functionCall.name ?? '',
              input: p.functionCall.args ?? {},
            },
          ]
        : [],
    );
    const text = parts.map((p) => (p.text && !p.thought ? p.text : '')).join('');
    return {
      message: { role: 'assistant', text, toolCalls, native: { provider: 'gemini', value: parts } },
      stop: toolCalls.length ? 'tool_use' : (STOPS[finish] ?? 'other'),
      ...(usage ? { usage } : {}),
    };
  }
}

interface Streamed {
  parts: Part[];
  finish: string;
  usage?: ModelTurn['usage'];
}

/** The parts of a streamed answer, in order, with its finish reason and usage; text is told as it comes. */
async function collect(
  stream: AsyncIterable<GenerateContentResponse>,
  onText?: (text: string) => void,
): Promise<Streamed> {
  const streamed: Streamed = { parts: [], finish: '' };
  for await (const chunk of stream) {
    const candidate = chunk.candidates?.[0];
    for (const part of candidate?.content?.parts ?? []) {
      if (part.text && !part.thought) onText?.(part.text);
      streamed.parts.push(part);
    }
    if (candidate?.finishReason) streamed.finish = candidate.finishReason;
    if (chunk.usageMetadata)
      streamed.usage = {
        inputTokens: chunk.usageMetadata.promptTokenCount,
        outputTokens: chunk.usageMetadata.candidatesTokenCount,
      };
  }
  return streamed;
}

function toDeclaration(tool: ModelTool): FunctionDeclaration {
  return { name: tool.name, description: tool.description, parametersJsonSchema: tool.jsonSchema };
}

function toContents(messages: readonly AgentMessage[]): Content[] {
  return messages.map((m): Content => {
    if (m.role === 'user') return { role: 'user', parts: [{ text: m.content }] };
    if (m.role === 'assistant') {
      if (m.native?.provider === 'gemini') return { role: 'model', parts: m.native.value as Part[] };
      const parts: Part[] = m.text ? [{ text: m.text }] : [];
      for (const c of m.toolCalls)
        parts.push({ functionCall: { ...idOf(c.id), name: c.name, args: c.input as Record<string, unknown> } });
      return { role: 'model', parts };
    }
    return {
      role: 'user',
      parts: m.results.map((r) => {
        const text = contentText(r.content);
        const images = r.content.flatMap((c) =>
          c.type === 'image' ? [{ inlineData: { mimeType: c.mimeType, data: c.data } }] : [],
        );
        const response = r.status === 'success' ? { output: text } : { error: text };
        return {
          functionResponse: { ...idOf(r.callId), name: r.name, response, ...(images.length ? { parts: images } : {}) },
        };
      }),
    };
  });
}

function idOf(id: string): { id?: string } {
  return id.startsWith(MADE_UP) ? {} : { id };
}
