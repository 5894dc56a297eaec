// Our ToolResult as an MCP tools/call result: content for the model, isError for errors and
// rejections, and structuredContent only for a tool that declares an output schema. A client that
// saw that schema asked for the structured form (and MCP then requires it); for any other tool the
// same payload in both fields would be paid for twice.
import { structuredText, type ContentBlock, type StructuredText, type ToolResult } from '@toolbelt/core';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

type McpBlock = CallToolResult['content'][number];

function toBlock(block: ContentBlock, asText: StructuredText): McpBlock {
  if (block.type === 'text') return { type: 'text', text: block.text };
  if (block.type === 'image') return { type: 'image', data: block.data, mimeType: block.mimeType };
  return { type: 'text', text: structuredText(block.json, asText) };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * `structured`: the tool declares an output schema, so structuredContent is sent. `asText`: how a
 * `json` block becomes text (the executor's `structuredText`).
 */
export function toCallToolResult(
  result: ToolResult,
  structured = false,
  asText: StructuredText = 'json',
): CallToolResult {
  const failed = result.status === 'error' || result.status === 'rejected';
  const content: McpBlock[] = result.content.map((b) => toBlock(b, asText));
  if (content.length === 0) content.push({ type: 'text', text: failed ? `${result.tool} failed with no message` : '' });
  const out: CallToolResult = { content };
  if (failed) out.isError = true;
  else if (structured && isRecord(result.structured)) out.structuredContent = result.structured;
  out._meta = {
    'toolbelt/call': {
      callId: result.callId,
      status: result.status,
      durationMs: Math.round(result.durationMs * 1000) / 1000,
      ...(result.error ? { code: result.error.code, recoverable: result.error.recoverable } : {}),
      ...(result.approvedBy ? { approvedBy: result.approvedBy } : {}),
    },
  };
  return out;
}
