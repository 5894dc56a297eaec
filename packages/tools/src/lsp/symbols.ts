import { defineTool, type Tool } from '@toolbelt/core';
import type { DocumentSymbol, SymbolInformation } from 'vscode-languageserver-protocol';
import { z } from 'zod';
import { formatSymbols } from './format.js';
import { onFile, readsFile, requireCapability, type LspRuntime } from './runtime.js';

const description = `Outline of one source file from its language server: classes, functions, methods, variables and so on, nested as in the code, each with its 1-based line:column.
Use it to find where something is defined in a file before reading or editing it. At most 500 entries.`;

const input = z.object({
  path: z.string().min(1).describe('Source file to outline, relative to the working directory.'),
});

export function symbolsTool(rt: LspRuntime): Tool {
  return defineTool({
    name: 'symbols',
    title: 'Document symbols',
    description,
    input,
    category: 'lsp',
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
        return [`${shown}:`, ...lines.slice(0, 500), ...(lines.length > 500 ? [`... and ${lines.length - 500} more`] : [])].join('\n');
      });
    },
  });
}
