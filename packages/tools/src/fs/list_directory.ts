import { lstatSync, readdirSync, type Dirent } from 'node:fs';
import { z } from 'zod';
import { defineTool, ToolError, type ToolContext, type ToolOutput } from '@toolbelt/core';
import { levelFor, matchIgnore, SearchFilter, VCS_EXCLUDES, type Level } from '../walk/filters.js';
import { rootLevel } from '../walk/walk.js';
import { sensitiveReason } from '../workspace/sensitive.js';
import { hasOtherNames, specialKind } from '../workspace/special.js';
import { fsError } from '../errno.js';
import { formatBytes } from '../text/amounts.js';

const MAX_ENTRIES = 500;
const MAX_DEPTH = 5;

const description = `List a directory, folders first; .git, gitignored and credential folders not expanded. At most ${MAX_ENTRIES} entries. Find by name: glob.`;

const input = z.object({
  path: z.string().default('.'),
  depth: z.number().int().min(1).max(MAX_DEPTH).default(1).describe('Levels.'),
});

type Input = z.infer<typeof input>;

const VCS = new Set(VCS_EXCLUDES.map((g) => g.slice(1)).filter((d) => d !== '.toolbelt'));
const filter = new SearchFilter();

function sorted(entries: Dirent[]): Dirent[] {
  const rank = (e: Dirent) => (e.isDirectory() ? 0 : 1);
  return entries.sort((a, b) => rank(a) - rank(b) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

interface Listing {
  lines: string[];
  omitted: number;
}

/** Past the cap, entries are still walked (to the same depth) to be counted, up to this many. */
const MAX_COUNTED = 10_000;

function add(out: Listing, line: () => string): void {
  if (out.lines.length < MAX_ENTRIES) out.lines.push(line());
  else out.omitted++;
}

function list(dir: string, rel: string, depth: number, level: Level | undefined, entries: Dirent[], out: Listing): void {
  const indent = '  '.repeat(rel === '' ? 0 : rel.split('/').length);
  for (const e of sorted(entries)) {
    if (out.omitted >= MAX_COUNTED) return;
    const abs = `${dir}/${e.name}`;
    const childRel = rel === '' ? e.name : `${rel}/${e.name}`;
    if (e.isSymbolicLink()) {
      add(out, () => `${indent}${e.name}@`);
    } else if (e.isDirectory()) {
      let note = '';
      let children: Dirent[] | undefined;
      if (depth > 1) {
        if (VCS.has(e.name)) note = '  (version control, not expanded)';
        else if (sensitiveReason(childRel, 'list')) note = '  (protected, not expanded)';
        else if (matchIgnore(level, abs, true) === 'ignore') note = '  (ignored, not expanded)';
        else children = safeList(abs);
      }
      add(out, () => `${indent}${e.name}/${note}`);
      if (children) {
        const names = new Set(children.map((c) => c.name));
        const childLevel = levelFor(abs, (n) => names.has(n), level) ?? level;
        list(abs, childRel, depth - 1, childLevel, children, out);
      }
    } else {
      // Entries are described from lstat, never opened: a named pipe here cannot block the listing.
      add(out, () => `${indent}${e.name}${describeEntry(abs)}`);
    }
  }
}

function describeEntry(abs: string): string {
  try {
    const st = lstatSync(abs);
    const special = specialKind(st);
    if (special) return `  [${special}]`;
    return `  ${formatBytes(st.size)}${hasOtherNames(st) ? `  [${st.nlink} hard links]` : ''}`;
  } catch {
    return ''; // vanished while listing
  }
}

function safeList(dir: string): Dirent[] {
  try {
    return readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
}

async function execute({ path, depth }: Input, ctx: ToolContext): Promise<ToolOutput> {
  const ws = ctx.workspace;
  const abs = await ws.resolve(path, 'list');
  const shown = ws.display(abs);
  let entries: Dirent[];
  try {
    const st = lstatSync(abs);
    const special = specialKind(st);
    if (special) throw new ToolError('INVALID_PARAMS', `${shown} is a ${special}, not a directory; list_directory lists directories.`);
    if (!st.isDirectory()) throw new ToolError('INVALID_PARAMS', `${shown} is a file, not a directory; use read_file to read it.`);
    entries = readdirSync(abs, { withFileTypes: true });
  } catch (err) {
    throw fsError(err, shown);
  }
  const out: Listing = { lines: [], omitted: 0 };
  list(abs === '/' ? '' : abs, '', depth, depth > 1 ? rootLevel(abs, filter, entries) : undefined, entries, out);
  const header = `${shown === '.' ? '.' : shown}/`;
  const text = out.lines.length === 0 ? `${header} is empty.` : [header, ...out.lines.map((l) => `  ${l}`)].join('\n');
  const count = out.omitted >= MAX_COUNTED ? `${MAX_COUNTED.toLocaleString('en-US')} or more` : String(out.omitted);
  const more = out.omitted ? `\n(${count} more entries not shown; list a subdirectory or use glob)` : '';
  return { content: text + more, metadata: { path: shown, entries: out.lines.length, omitted: out.omitted } };
}

export const listDirectory = defineTool({
  name: 'list_directory',
  title: 'List directory',
  description,
  input,
  category: 'fs',
  usualEffect: 'read',
  async effect(args, ctx) {
    const abs = await ctx.workspace.resolve(args.path, 'list');
    return { effect: 'read', subject: { paths: [abs] } };
  },
  annotations: { idempotent: true },
  execute,
});
