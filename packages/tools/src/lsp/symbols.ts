import { defineTool, type Tool } from '@toolbelt/core';
import { CODE } from './group.js';
import type { DocumentSymbol, SymbolInformation } from 'vscode-languageserver-protocol';
import { z } from 'zod';
import { formatSymbols } from './format.js';
import { onFile, readsFile, requireCapability, type LspRuntime } from './runtime.js';

const description = `Outline of a source file (classes, functions, variables, nested) with line:column; at most 500. Find a definition before reading.`;

const input = z.object({
  path: z.string().min(1).describe('Source file.'),
});

export function symbolsTool(rt: LspRuntime): Tool {
  return defineTool({
    name: 'symbols',
    title: 'Document symbols',
    description,
    input,
    category: 'lsp',
    group: CODE,
    timeoutMs: 120_000,
    effect: readsFile,
    usualEffect: 'read',
    async execute({ path }, ctx) {
      return onFile(rt, ctx, path, async ({ client, doc, file }) => {
        requireCapability(client, 'documentSymbolProvider', 'document symbols');
        const result = await client.request<DocumentSymbol[] | SymbolInformation[] | null>(
          'textDocument/documentSymbol',
          { textDocument: { uri: doc.uri } },
          ctx.signal,
        );
        const lines = formatSymbols(result ?? []);
        const shown = file.workspace.display(file.abs);
        if (!lines.length) return `No symbols in ${shown}.`;
        return [
          `${shown}:`,
          ...lines.slice(0, 500),
          ...(lines.length > 500 ? [`... and ${lines.length - 500} more`] : []),
        ].join('\n');
      });
    },
  });
}
