import { defineTool, type Tool } from '@toolbelt/core';
import type { Hover } from 'vscode-languageserver-protocol';
import { z } from 'zod';
import { hoverText } from './format.js';
import { positionFields, toPosition } from './locate.js';
import { onFile, readsFile, requireCapability, type LspRuntime } from './runtime.js';

const description = `Type and doc comment of the identifier at a position, as an editor's hover shows.`;

const input = z.object(positionFields);

export function hoverTool(rt: LspRuntime): Tool {
  return defineTool({
    name: 'hover',
    title: 'Hover',
    description,
    input,
    category: 'lsp',
    timeoutMs: 120_000,
    effect: readsFile,
    usualEffect: 'read',
    async execute(where, ctx) {
      return onFile(rt, ctx, where.path, async ({ client, doc, file }) => {
        requireCapability(client, 'hoverProvider', 'hover');
        const position = toPosition(doc.text, where);
        const hover = await client.request<Hover | null>('textDocument/hover', { textDocument: { uri: doc.uri }, position }, ctx.signal);
        const text = hoverText(hover);
        const at = `${file.workspace.display(file.abs)}:${position.line + 1}:${position.character + 1}`;
        return text || `No hover information at ${at}; point at an identifier (check line and column with read_file).`;
      });
    },
  });
}
