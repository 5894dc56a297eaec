import { defineTool, type Tool } from '@toolbelt/core';
import type { Location } from 'vscode-languageserver-protocol';
import { z } from 'zod';
import { formatLocations, uriPath } from './format.js';
import { positionFields, toPosition } from './locate.js';
import { onFile, readsFile, requireCapability, type LspRuntime } from './runtime.js';

const description = `Every use of the identifier at a position across the project: path:line:column and the line, at most 200.`;

const input = z.object({
  ...positionFields,
  includeDeclaration: z.boolean().default(true).describe('List the declaration too.'),
});

export function referencesTool(rt: LspRuntime): Tool {
  return defineTool({
    name: 'references',
    title: 'Find references',
    description,
    input,
    category: 'lsp',
    timeoutMs: 120_000,
    effect: readsFile,
    usualEffect: 'read',
    async execute(where, ctx) {
      return onFile(rt, ctx, where.path, async ({ client, doc, file }) => {
        requireCapability(client, 'referencesProvider', 'find references');
        const position = toPosition(doc.text, where);
        const params = { textDocument: { uri: doc.uri }, position, context: { includeDeclaration: where.includeDeclaration } };
        const result = (await client.request<Location[] | null>('textDocument/references', params, ctx.signal)) ?? [];
        const at = `${file.workspace.display(file.abs)}:${position.line + 1}:${position.character + 1}`;
        if (!result.length) return `No references found for the identifier at ${at}.`;
        const files = new Set(result.map((l) => uriPath(l.uri))).size;
        const head = `${result.length} reference${result.length === 1 ? '' : 's'} in ${files} file${files === 1 ? '' : 's'}:`;
        return [head, ...(await formatLocations(file.workspace, result))].join('\n');
      });
    },
  });
}
