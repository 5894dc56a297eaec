// A ToolResult as the model reads it: text and images, the text cut to the loop's budget.
import { truncateContent, type ToolResult } from '@toolbelt/core';
import type { ModelContent } from './types.js';

export function modelContent(result: ToolResult, maxChars: number): ModelContent[] {
  const blocks = result.content.map((b) =>
    b.type === 'json' ? { type: 'text' as const, text: JSON.stringify(b.json, null, 2) } : b,
  );
  if (result.status === 'error' && blocks.every((b) => b.type === 'text')) {
    const text = `Error (${result.error.code}): ${result.error.message}`;
    return truncateContent([{ type: 'text', text }], maxChars).content as ModelContent[];
  }
  const cut = truncateContent(blocks.length ? blocks : [{ type: 'text', text: '(no output)' }], maxChars).content;
  return cut as ModelContent[];
}

/** The text of a result's content, images named, for APIs whose tool results are strings. */
export function contentText(content: readonly ModelContent[]): string {
  return content.map((b) => (b.type === 'text' ? b.text : `[image ${b.mimeType}]`)).join('\n');
}

/** Parses a tool call's JSON arguments; text that is not JSON is passed on for the executor to refuse with INVALID_PARAMS. */
export function parseArguments(json: string | undefined): unknown {
  if (!json) return {};
  try {
    return JSON.parse(json);
  } catch {
    return json;
  }
}
