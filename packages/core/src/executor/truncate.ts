// A tool's output as a result: oversized text cut to head and tail, and the cut says how much was there.
import type { ContentBlock, PendingResult, SuccessResult } from '../result.js';
import { structuredText, type StructuredText } from '../structured-text.js';
import type { ToolOutput } from '../tool.js';

export function truncateText(text: string, maxChars: number): { text: string; truncated: boolean } {
  if (text.length <= maxChars) return { text, truncated: false };
  const head = Math.ceil(maxChars * 0.6);
  const tail = maxChars - head;
  const omitted = text.length - head - tail;
  return {
    text: `${text.slice(0, head)}\n\n[... ${omitted} characters omitted; output was ${text.length} characters in total ...]\n\n${text.slice(text.length - tail)}`,
    truncated: true,
  };
}

/** Applies the limit to the text blocks together, so many small blocks cannot add up past it. */
export function truncateContent(
  content: ContentBlock[],
  maxChars: number,
): { content: ContentBlock[]; truncated: boolean } {
  let total = 0;
  for (const block of content) if (block.type === 'text') total += block.text.length;
  if (total <= maxChars) return { content, truncated: false };
  const out: ContentBlock[] = [];
  for (const block of content) {
    if (block.type !== 'text') {
      out.push(block);
      continue;
    }
    const share = Math.max(200, Math.floor((block.text.length / total) * maxChars));
    out.push({ type: 'text', text: truncateText(block.text, share).text });
  }
  return { content: out, truncated: true };
}

/**
 * What a tool returns when the call is accepted and its result comes later, from outside (the
 * gateway's async declared tools): the call ends `pending`. No part of the tool contract; an
 * ordinary tool never returns one.
 */
export interface DeferredOutput extends ToolOutput {
  pending: true;
}

export function outputToResult(
  tool: string,
  callId: string,
  output: ToolOutput | string,
  maxChars: number,
  asText: StructuredText = 'json',
): SuccessResult | PendingResult {
  const out: ToolOutput & Partial<DeferredOutput> = typeof output === 'string' ? { content: output } : (output ?? {});
  let content: ContentBlock[] =
    typeof out.content === 'string' ? [{ type: 'text', text: out.content }] : (out.content ?? []);
  if (content.length === 0 && out.structured !== undefined)
    content = [{ type: 'text', text: structuredText(out.structured, asText) }];
  const cut = truncateContent(content, maxChars);
  const result: SuccessResult | PendingResult = {
    status: out.pending === true ? 'pending' : 'success',
    callId,
    tool,
    content: cut.content,
    durationMs: 0,
  };
  if (out.display) result.display = out.display;
  if (out.structured !== undefined) result.structured = out.structured;
  if (out.metadata || cut.truncated)
    result.metadata = cut.truncated ? { ...out.metadata, truncated: true } : out.metadata;
  return result;
}
