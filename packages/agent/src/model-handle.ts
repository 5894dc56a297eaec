// The loop's model as a handle a tool may ask (ctx.llm): one plain turn of the provider, no tools.
import { questionMessages, type ModelHandle } from '@toolbelt/core';
import type { AgentMessage, ModelProvider } from './types.js';

export function modelHandle(model: ModelProvider): ModelHandle {
  return {
    name: model.model,
    async ask(q) {
      const messages: AgentMessage[] = questionMessages(q).map((m) =>
        m.role === 'user' ? { role: 'user', content: m.text } : { role: 'assistant', text: m.text, toolCalls: [] },
      );
      const answer = await model.turn({
        ...(q.system ? { system: q.system } : {}),
        messages,
        tools: [],
        ...(q.maxTokens ? { maxTokens: q.maxTokens } : {}),
        ...(q.signal ? { signal: q.signal } : {}),
      });
      return { text: answer.message.text, model: model.model };
    },
  };
}
