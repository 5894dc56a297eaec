// The model behind `toolbelt chat`: which provider's adapter, and its API key from the environment.
import {
  anthropicModel,
  geminiModel,
  openaiChatModel,
  openaiResponsesModel,
  type ModelProvider,
} from '@toolbelt/agent';
import { UsageError } from '../command.js';
import type { Env } from '../config/dotenv.js';

interface ProviderEntry {
  keys: string[];
  make(model: string, apiKey: string, baseUrl: string | undefined): ModelProvider;
}

const PROVIDERS: Record<string, ProviderEntry> = {
  anthropic: {
    keys: ['ANTHROPIC_API_KEY'],
    make: (model, apiKey, baseURL) => anthropicModel({ model, apiKey, ...(baseURL ? { baseURL } : {}) }),
  },
  openai: {
    keys: ['OPENAI_API_KEY'],
    make: (model, apiKey, baseURL) => openaiResponsesModel({ model, apiKey, ...(baseURL ? { baseURL } : {}) }),
  },
  'openai-chat': {
    keys: ['OPENAI_API_KEY'],
    make: (model, apiKey, baseURL) => openaiChatModel({ model, apiKey, ...(baseURL ? { baseURL } : {}) }),
  },
  gemini: {
    keys: ['GEMINI_API_KEY', 'GOOGLE_API_KEY'],
    make: (model, apiKey, baseUrl) => geminiModel({ model, apiKey, ...(baseUrl ? { baseUrl } : {}) }),
  },
};

export const PROVIDER_NAMES = Object.keys(PROVIDERS);

export interface ChatChoice {
  name: string;
  model: string;
  entry: ProviderEntry;
  baseUrl: string | undefined;
}

/** The provider and model the flags name, checked before anything starts. */
export function chooseModel(values: Record<string, unknown>): ChatChoice {
  const name = values.provider as string | undefined;
  const model = values.model as string | undefined;
  if (!name) throw new UsageError(`name the provider: --provider ${PROVIDER_NAMES.join('|')}`);
  const entry = PROVIDERS[name];
  if (!entry) throw new UsageError(`unknown provider "${name}"; use one of: ${PROVIDER_NAMES.join(', ')}`);
  if (!model) throw new UsageError(`name the model: --model M (the provider's model id)`);
  return { name, model, entry, baseUrl: values['base-url'] as string | undefined };
}

// Sent to a --base-url server when no key is set: local servers (llama.cpp, Ollama, LM Studio,
// vLLM) ignore the header, and the SDKs refuse to start without one.
export const NO_KEY = 'no-key';

/**
 * The chosen model with its key from `env` (this process's environment over the workspace's .env).
 * With --base-url the key is optional: a local server needs none.
 */
export function chatModel(choice: ChatChoice, env: Env): ModelProvider {
  const key = choice.entry.keys.map((k) => env[k]).find(Boolean) ?? (choice.baseUrl ? NO_KEY : undefined);
  if (!key)
    throw new UsageError(
      `no API key for ${choice.name}: set ${choice.entry.keys.join(' or ')} in the environment or in the workspace's .env (a local server at --base-url needs none)`,
    );
  return choice.entry.make(choice.model, key, choice.baseUrl);
}
