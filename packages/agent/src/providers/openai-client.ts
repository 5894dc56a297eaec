// The one place an OpenAI SDK client is made for both of its APIs.
import type OpenAI from 'openai';
import { lazy } from './lazy.js';

export interface OpenAIOptions {
  model: string;
  /** Default: the SDK's (OPENAI_API_KEY). */
  apiKey?: string;
  /** Any server that speaks the API (Azure, a local model server, a test double). */
  baseURL?: string;
  maxTokens?: number;
  /** An SDK client of your own; `apiKey` and `baseURL` are then ignored. */
  client?: OpenAI;
}

/** The client, made (and the SDK loaded) at the first call. */
export function openaiClient(opts: OpenAIOptions): () => Promise<OpenAI> {
  return lazy(async () => {
    if (opts.client) return opts.client;
    const { default: Sdk } = await import('openai');
    return new Sdk({
      ...(opts.apiKey ? { apiKey: opts.apiKey } : {}),
      ...(opts.baseURL ? { baseURL: opts.baseURL } : {}),
    });
  });
}

export function dataUrl(image: { data: string; mimeType: string }): string {
  return `data:${image.mimeType};base64,${image.data}`;
}
