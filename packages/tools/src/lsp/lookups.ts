// The three position lookups of code_lookup: where an identifier is defined, where it is used, and
// what an editor's hover says of it. Each runs on a file already open in its server.
import type { ToolContext } from '@toolbelt/core';
import type { Hover, Location, LocationLink, Position } from 'vscode-languageserver-protocol';
import { formatLocations, hoverText, toLocations, uriPath } from './format.js';
import { requireCapability, type FileSession } from './runtime.js';

export type Lookup = (
  s: FileSession,
  position: Position,
  ctx: ToolContext,
  includeDeclaration: boolean,
) => Promise<string>;

const at = (s: FileSession, p: Position) => `${s.file.workspace.display(s.file.abs)}:${p.line + 1}:${p.character + 1}`;

export const definitionAt: Lookup = async (s, position, ctx) => {
  requireCapability(s.client, 'definitionProvider', 'go to definition');
  const params = { textDocument: { uri: s.doc.uri }, position };
  const result = await s.client.request<Location | Location[] | LocationLink[] | null>(
    'textDocument/definition',
    params,
    ctx.signal,
  );
  const lines = await formatLocations(s.file.workspace, toLocations(result));
  return lines.length ? lines.join('\n') : `No definition found for the identifier at ${at(s, position)}.`;
};

export const referencesAt: Lookup = async (s, position, ctx, includeDeclaration) => {
  requireCapability(s.client, 'referencesProvider', 'find references');
  const params = { textDocument: { uri: s.doc.uri }, position, context: { includeDeclaration } };
  const result = (await s.client.request<Location[] | null>('textDocument/references', params, ctx.signal)) ?? [];
  if (!result.length) return `No references found for the identifier at ${at(s, position)}.`;
  const files = new Set(result.map((l) => uriPath(l.uri))).size;
  const head = `${result.length} reference${result.length === 1 ? '' : 's'} in ${files} file${files === 1 ? '' : 's'}:`;
  return [head, ...(await formatLocations(s.file.workspace, result))].join('\n');
};

export const hoverAt: Lookup = async (s, position, ctx) => {
  requireCapability(s.client, 'hoverProvider', 'hover');
  const hover = await s.client.request<Hover | null>(
    'textDocument/hover',
    { textDocument: { uri: s.doc.uri }, position },
    ctx.signal,
  );
  return (
    hoverText(hover) ||
    `No hover information at ${at(s, position)}; point at an identifier (check line and column with read_file).`
  );
};
