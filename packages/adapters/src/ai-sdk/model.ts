// An AI SDK language model as the handle a tool may ask (ctx.llm): one generateText call, no tools.
import { questionMessages, type ModelHandle } from '@toolbelt/core';
import { generateText, type LanguageModel } from 'ai';

export function aiSdkModel(model: LanguageModel): ModelHandle {
  return {
    ...(typeof model === 'string' ? { name: model } : { name: model.modelId }),
    async ask(q) {
      const result = await generateText({
        model,
        ...(q.system ? { system: q.system } : {}),
        messages: questionMessages(q).map((m) => ({ role: m.role, content: m.text })),
        ...(q.maxTokens ? { maxOutputTokens: q.maxTokens } : {}),
        ...(q.signal ? { abortSignal: q.signal } : {}),
      });
      return { text: result.text, model: result.response.modelId };
    },
  };
}
