// A remote tools/call result as our ToolOutput: text and images as they are, resources and audio as
// text the model can read, structuredContent kept as `structured`.
import type { ContentBlock as OurBlock, ToolOutput } from '@toolbelt/core';
import type { CallToolResult, ContentBlock } from '@modelcontextprotocol/sdk/types.js';

function bytesOfBase64(data: string): number {
  return Math.round((data.length * 3) / 4);
}

function toBlock(block: ContentBlock): OurBlock {
  switch (block.type) {
    case 'text':
      return { type: 'text', text: block.text };
    case 'image':
      return { type: 'image', data: block.data, mimeType: block.mimeType };
    case 'audio':
      return { type: 'text', text: `[audio ${block.mimeType}, ${bytesOfBase64(block.data)} bytes]` };
    case 'resource': {
      const r = block.resource;
      if ('text' in r && typeof r.text === 'string')
        return { type: 'text', text: `Resource ${r.uri}${r.mimeType ? ` (${r.mimeType})` : ''}:\n${r.text}` };
      const blob = 'blob' in r && typeof r.blob === 'string' ? r.blob : '';
      if (r.mimeType?.startsWith('image/') && blob) return { type: 'image', data: blob, mimeType: r.mimeType };
      return {
        type: 'text',
        text: `[resource ${r.uri}${r.mimeType ? ` (${r.mimeType})` : ''}, ${bytesOfBase64(blob)} bytes of binary data]`,
      };
    }
    case 'resource_link':
      return {
        type: 'text',
        text: `Resource link: ${block.name} <${block.uri}>${block.description ? ` — ${block.description}` : ''}`,
      };
    default:
      return { type: 'text', text: JSON.stringify(block) };
  }
}

export function toToolOutput(result: CallToolResult, server: string, remoteName: string): ToolOutput {
  const content = (result.content ?? []).map(toBlock);
  const out: ToolOutput = { content, metadata: { mcpServer: server, mcpTool: remoteName } };
  if (result.structuredContent !== undefined) out.structured = result.structuredContent;
  return out;
}

/** The text of an isError result, for the error message. */
export function errorText(result: CallToolResult): string {
  const text = (result.content ?? [])
    .map((b) => (b.type === 'text' ? b.text : ''))
    .filter(Boolean)
    .join('\n')
    .trim();
  if (text) return text;
  if (result.structuredContent !== undefined) return JSON.stringify(result.structuredContent);
  return 'no details given';
}
