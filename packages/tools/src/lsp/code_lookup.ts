import { defineTool, type Tool } from '@toolbelt/core';
import { CODE } from './group.js';
import { z } from 'zod';
import { positionFields, toPosition } from './locate.js';
import { definitionAt, hoverAt, referencesAt, type Lookup } from './lookups.js';
import { onFile, readsFile, type LspRuntime } from './runtime.js';

// One tool for the three lookups at a position: they differ only by the verb, and one definition
// costs a model a third of three.
const description = `Ask the language server about the identifier at a position: definition (path:line:column and the line; none outside the workspace), references across the project (at most 200), or hover (type and doc comment).`;

const LOOKUPS: Record<'definition' | 'references' | 'hover', Lookup> = {
  definition: definitionAt,
  references: referencesAt,
  hover: hoverAt,
};

const input = z.object({
  what: z.enum(['definition', 'references', 'hover']).describe('Lookup.'),
  ...positionFields,
  include_declaration: z.boolean().default(true).describe('references: list the declaration too.'),
});

export function codeLookupTool(rt: LspRuntime): Tool {
  return defineTool({
    name: 'code_lookup',
    title: 'Code lookup',
    description,
    input,
    category: 'lsp',
    group: CODE,
    timeoutMs: 120_000,
    effect: readsFile,
    usualEffect: 'read',
    async execute(where, ctx) {
      return onFile(rt, ctx, where.path, (s) =>
        LOOKUPS[where.what](s, toPosition(s.doc.text, where), ctx, where.include_declaration),
      );
    },
  });
}
