// Compiled (never run) by formats.sdk.test.ts: each format's output goes to the official SDK's
// request type as it is, with no cast; and the wrong format for an SDK is a compile error.
import type { MessageCreateParams } from '@anthropic-ai/sdk/resources/messages';
import type { FunctionDeclaration, Tool as GeminiTool } from '@google/genai';
import type { ChatCompletionCreateParams } from 'openai/resources/chat/completions';
import type { ResponseCreateParams } from 'openai/resources/responses/responses';
import { defineTool, toProviderFormat, toProviderFormats, type ProviderFormat, type Tool } from '../../index.js';

declare const tools: Tool[];
const one = defineTool({ name: 'one', description: 'd', effect: 'read', input: { type: 'object' }, execute: () => '' });

export const chat: ChatCompletionCreateParams['tools'] = toProviderFormats(tools, 'openai');
export const responses: ResponseCreateParams['tools'] = toProviderFormats(tools, 'openai-responses');
export const anthropic: MessageCreateParams['tools'] = toProviderFormats(tools, 'anthropic');
export const gemini: GeminiTool = { functionDeclarations: toProviderFormats(tools, 'gemini') };
export const declaration: FunctionDeclaration = toProviderFormat(one, 'gemini');

// @ts-expect-error: OpenAI's chat shape is not an Anthropic tool.
export const wrongAnthropic: MessageCreateParams['tools'] = toProviderFormats(tools, 'openai');
// @ts-expect-error: an Anthropic tool is not a Responses API tool (no type, no strict).
export const wrongResponses: ResponseCreateParams['tools'] = toProviderFormats(tools, 'anthropic');
// @ts-expect-error: the Responses API's flat shape is not a Chat Completions tool.
export const wrongChat: ChatCompletionCreateParams['tools'] = toProviderFormats(tools, 'openai-responses');

// A format known only at run time gives the union of the shapes, which narrows on the format.
export function named(format: ProviderFormat): string {
  const def = toProviderFormat(one, format);
  return 'function' in def ? def.function.name : def.name;
}
