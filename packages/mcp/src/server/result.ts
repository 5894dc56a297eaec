// Our ToolResult as an MCP tools/call result: content for the model, structuredContent when the
// tool returned structured output (with the text fallback already in content), isError for
// errors and rejections.
import type { ContentBlock, ToolResult } from '@toolbelt/core';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

type McpBlock = CallToolResult['content'][number];

function toBlock(block: ContentBlock): McpBlock {
  if (block.type === 'text') return { type: 'text', text: block.text };
  if (block.type === 'image') return { type: 'image', data: block.data, mimeType: block.mimeType };
  return { type: 'text', text: JSON.stringify(block.json, null, 2) };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function toCallToolResult(result: ToolResult, overrideText?: string): CallToolResult {
  const failed = result.status === 'error' || result.status === 'rejected';
  const content: McpBlock[] = overrideText !== undefined ? [{ type: 'text', text: overrideText }] : result.content.map(toBlock);
  if (content.length === 0) content.push({ type: 'text', text: failed ? `${result.tool} failed with no message` : '' });
  const out: CallToolResult = { content };
  if (failed) out.isError = true;
  else if (isRecord(result.structured)) out.structuredContent = result.structured;
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
