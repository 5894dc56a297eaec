// Short answers for the model: root-relative paths, 1-based positions, a line of source.
import { fileURLToPath } from 'node:url';
import type { Workspace } from '@toolbelt/core';
import { openChecked } from '../workspace/special.js';
import type {
  Diagnostic,
  DocumentSymbol,
  Hover,
  Location,
  LocationLink,
  MarkedString,
  SymbolInformation,
} from 'vscode-languageserver-protocol';

const SYMBOL_KINDS = [
  '',
  'file',
  'module',
  'namespace',
  'package',
  'class',
  'method',
  'property',
  'field',
  'constructor',
  'enum',
  'interface',
  'function',
  'variable',
  'constant',
  'string',
  'number',
  'boolean',
  'array',
  'object',
  'key',
  'null',
  'enum member',
  'struct',
  'event',
  'operator',
  'type parameter',
];

const SEVERITIES = ['', 'error', 'warning', 'info', 'hint'];

export function uriPath(uri: string): string {
  try {
    return fileURLToPath(uri);
  } catch {
    return uri;
  }
}

/** Location | Location[] | LocationLink[] | null, as plain locations (a link's target name). */
export function toLocations(result: Location | Location[] | LocationLink[] | null | undefined): Location[] {
  if (!result) return [];
  const list = Array.isArray(result) ? result : [result];
  return list.map((l) => ('targetUri' in l ? { uri: l.targetUri, range: l.targetSelectionRange ?? l.targetRange } : l));
}

/** Formats locations as `path:line:col: source line`; source only for files inside the workspace. */
export async function formatLocations(ws: Workspace, locations: Location[], max = 200): Promise<string[]> {
  const files = new Map<string, Promise<string[] | undefined>>();
  const linesOf = (path: string) => {
    let p = files.get(path);
    if (!p) {
      p = ws
        .resolve(path, 'read')
        .then(async (abs) => {
          // A location may name any file: read it only if it is a regular file with one name.
          const { fh } = await openChecked(abs, path);
          try {
            return await fh.readFile('utf8');
          } finally {
            await fh.close();
          }
        })
        .then((t) => t.split(/\r?\n/))
        .catch(() => undefined);
      files.set(path, p);
    }
    return p;
  };
  const sorted = [...locations].sort(
    (a, b) =>
      a.uri.localeCompare(b.uri) ||
      a.range.start.line - b.range.start.line ||
      a.range.start.character - b.range.start.character,
  );
  const out: string[] = [];
  for (const loc of sorted.slice(0, max)) {
    const path = uriPath(loc.uri);
    const { line, character } = loc.range.start;
    const source = (await linesOf(path))?.[line]?.trim();
    out.push(`${ws.display(path)}:${line + 1}:${character + 1}${source ? `: ${source.slice(0, 200)}` : ''}`);
  }
  if (sorted.length > max) out.push(`... and ${sorted.length - max} more`);
  return out;
}

export function formatDiagnostic(display: string, d: Diagnostic): string {
  const code =
    d.code === undefined
      ? ''
      : d.source === 'typescript'
        ? ` TS${d.code}`
        : ` ${d.source ? `${d.source} ` : ''}${d.code}`;
  const text = typeof d.message === 'string' ? d.message : d.message.value;
  const message = text.trim().replace(/\n\s*/g, '\n    ');
  return `${display}:${d.range.start.line + 1}:${d.range.start.character + 1} ${SEVERITIES[d.severity ?? 1]}${code}: ${message}`;
}

const startOf = (s: DocumentSymbol | SymbolInformation) =>
  ('location' in s ? s.location.range : s.selectionRange).start;

/** In source order, children indented under their parent. */
export function formatSymbols(symbols: DocumentSymbol[] | SymbolInformation[], depth = 0): string[] {
  const out: string[] = [];
  const ordered = [...symbols].sort(
    (a, b) => startOf(a).line - startOf(b).line || startOf(a).character - startOf(b).character,
  );
  for (const s of ordered) {
    const start = startOf(s);
    const kind = SYMBOL_KINDS[s.kind] ?? 'symbol';
    const detail = 'detail' in s && s.detail ? ` — ${s.detail.replace(/\s+/g, ' ').slice(0, 120)}` : '';
    const container = 'containerName' in s && s.containerName ? ` (in ${s.containerName})` : '';
    const label = s.name === kind ? kind : `${kind} ${s.name}`;
    out.push(`${'  '.repeat(depth)}${label}${detail}${container} — ${start.line + 1}:${start.character + 1}`);
    if ('children' in s && s.children?.length) out.push(...formatSymbols(s.children, depth + 1));
  }
  return out;
}

export function hoverText(hover: Hover | null | undefined): string {
  if (!hover) return '';
  const part = (m: MarkedString | { kind: string; value: string }): string =>
    typeof m === 'string' ? m : 'language' in m ? `\`\`\`${m.language}\n${m.value}\n\`\`\`` : m.value;
  const c = hover.contents;
  return (Array.isArray(c) ? c.map(part).join('\n\n') : part(c)).trim();
}
