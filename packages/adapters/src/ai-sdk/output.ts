// A toolbelt ToolResult as the AI SDK's tool result content: text, images, an error, a denial.
import { textOf, type ToolResult } from '@toolbelt/core';
import type { Tool } from 'ai';

/** The SDK's tool result content (its type is not exported by `ai` itself). */
export type ToolResultOutput = Awaited<ReturnType<NonNullable<Tool['toModelOutput']>>>;

type ContentPart = Extract<ToolResultOutput, { type: 'content' }>['value'][number];

export function toModelOutput(result: ToolResult): ToolResultOutput {
  if (result.status === 'error')
    return { type: 'error-text', value: `Error (${result.error.code}): ${result.error.message}` };
  if (result.status === 'rejected') return { type: 'execution-denied', reason: textOf(result) };
  if (!result.content.some((b) => b.type === 'image')) return { type: 'text', value: textOf(result) };
  const parts: ContentPart[] = result.content.map((block) => {
    if (block.type === 'image') return { type: 'image-data', data: block.data, mediaType: block.mimeType };
    return { type: 'text', text: block.type === 'text' ? block.text : JSON.stringify(block.json, null, 2) };
  });
  return { type: 'content', value: parts };
}
