import { defineTool, type Tool } from '@toolbelt/core';
import type { Location, LocationLink } from 'vscode-languageserver-protocol';
import { z } from 'zod';
import { formatLocations, toLocations } from './format.js';
import { positionFields, toPosition } from './locate.js';
import { onFile, readsFile, requireCapability, type LspRuntime } from './runtime.js';

const description = `Where the identifier at a position is defined, across imports: path:line:column and the line (none for code outside the workspace).`;

const input = z.object(positionFields);

export function definitionTool(rt: LspRuntime): Tool {
  return defineTool({
    name: 'definition',
    title: 'Go to definition',
    description,
    input,
    category: 'lsp',
    timeoutMs: 120_000,
    effect: readsFile,
    usualEffect: 'read',
    async execute(where, ctx) {
      return onFile(rt, ctx, where.path, async ({ client, doc, file }) => {
        requireCapability(client, 'definitionProvider', 'go to definition');
        const position = toPosition(doc.text, where);
        const result = await client.request<Location | Location[] | LocationLink[] | null>(
          'textDocument/definition',
          { textDocument: { uri: doc.uri }, position },
          ctx.signal,
        );
        const lines = await formatLocations(file.workspace, toLocations(result));
        const at = `${file.workspace.display(file.abs)}:${position.line + 1}:${position.character + 1}`;
        if (!lines.length) return `No definition found for the identifier at ${at}.`;
        return lines.join('\n');
      });
    },
  });
}
