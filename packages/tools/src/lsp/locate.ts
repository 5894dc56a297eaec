// From a model's (path, line, column or symbol) to a file a server handles and an LSP position.
// Lines and columns are 1-based, as read_file shows them; LSP's are 0-based UTF-16 offsets.
import { stat } from 'node:fs/promises';
import { sep } from 'node:path';
import { ToolError, type ToolContext, type Workspace } from '@toolbelt/core';
import type { Position } from 'vscode-languageserver-protocol';
import { z } from 'zod';
import { absentOr } from '../errno.js';
import { assertPlainFile } from '../workspace/special.js';
import { specFor, type ServerSpec } from './servers.js';

export const positionFields = {
  path: z.string().min(1).describe('Source file.'),
  line: z.number().int().min(1).describe('As read_file shows it.'),
  column: z.number().int().min(1).optional().describe('Or symbol.'),
  symbol: z.string().min(1).optional().describe('Identifier on the line.'),
};

export interface LocatedFile {
  abs: string;
  spec: ServerSpec;
  /** The workspace root the server for this file runs in. */
  root: string;
  workspace: Workspace;
}

export async function locateFile(ctx: ToolContext, specs: readonly ServerSpec[], path: string): Promise<LocatedFile> {
  const ws = ctx.workspace;
  const abs = await ws.resolve(path, 'read');
  const info = await stat(abs).catch(absentOr(path));
  if (!info) throw new ToolError('NOT_FOUND', `${path} does not exist; check the path with glob or list_directory`);
  // The server is sent the file's text: a named pipe would block the read, a hard link may be a file outside.
  assertPlainFile(info, path);
  if (!info.isFile())
    throw new ToolError('INVALID_PARAMS', `${path} is not a file; the LSP tools work on one source file`);
  const spec = specFor(specs, abs);
  if (!spec) {
    const known = [...new Set(specs.flatMap((s) => s.extensions))].join(' ');
    throw new ToolError(
      'INVALID_PARAMS',
      `no language server handles ${path}; configured extensions: ${known}. Add a server under "lsp" in toolbelt.config.json.`,
    );
  }
  const root =
    [...ws.roots].filter((r) => abs === r || abs.startsWith(r + sep)).sort((a, b) => b.length - a.length)[0] ?? ws.cwd;
  return { abs, spec, root, workspace: ws };
}

const IDENT = /[\p{L}\p{N}_$]/u;

export function toPosition(
  text: string,
  where: { path: string; line: number; column?: number; symbol?: string },
): Position {
  const lines = text.split(/\r?\n/);
  if (where.line > lines.length)
    throw new ToolError(
      'INVALID_PARAMS',
      `line ${where.line} is past the end of ${where.path} (${lines.length} lines)`,
    );
  const lineText = lines[where.line - 1];
  if (where.symbol !== undefined) {
    const at = findWord(lineText, where.symbol);
    if (at < 0)
      throw new ToolError(
        'INVALID_PARAMS',
        `"${where.symbol}" does not occur on line ${where.line} of ${where.path}, which reads: ${lineText.trim().slice(0, 200)}`,
      );
    return { line: where.line - 1, character: at };
  }
  if (where.column === undefined)
    throw new ToolError('INVALID_PARAMS', 'give column or symbol to say where on the line');
  if (where.column > lineText.length + 1) {
    throw new ToolError(
      'INVALID_PARAMS',
      `column ${where.column} is past the end of line ${where.line} of ${where.path} (${lineText.length} characters)`,
    );
  }
  return { line: where.line - 1, character: where.column - 1 };
}

/** First occurrence as a whole identifier, else first occurrence at all. */
function findWord(line: string, word: string): number {
  for (let i = line.indexOf(word); i >= 0; i = line.indexOf(word, i + 1)) {
    const before = i > 0 ? line[i - 1] : '';
    const after = line[i + word.length] ?? '';
    if (!IDENT.test(before) && !IDENT.test(after)) return i;
  }
  return line.indexOf(word);
}
