// Names are read through an opened, checked descriptor (text/opened.ts): the directory listed
// is the one the guard checked, and each subdirectory is opened from its parent without following a
// link, so a directory swapped for a link to /etc during the call is never listed.
import { lstatSync, readdirSync, type Dirent } from 'node:fs';
import { z } from 'zod';
import { defineTool, ToolError, type ToolContext, type ToolOutput } from '@toolbelt/core';
import { FILES } from './groups.js';
import { levelFor, matchIgnore, SearchFilter, VCS_EXCLUDES, type Level } from '../walk/filters.js';
import { rootLevel } from '../walk/walk.js';
import { sensitiveReason } from '../workspace/sensitive.js';
import { hasOtherNames, specialKind } from '../workspace/special.js';
import { assertOpenedAt, openDirChecked, type OpenDir } from '../text/opened.js';
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

/** `dir` is open and checked; its path is what ignore rules and sensitivity see. */
function list(
  dir: OpenDir,
  rel: string,
  depth: number,
  level: Level | undefined,
  entries: Dirent[],
  out: Listing,
): void {
  const indent = '  '.repeat(rel === '' ? 0 : rel.split('/').length);
  const base = dir.path === '/' ? '' : dir.path;
  for (const e of sorted(entries)) {
    if (out.omitted >= MAX_COUNTED) return;
    const abs = `${base}/${e.name}`;
    const childRel = rel === '' ? e.name : `${rel}/${e.name}`;
    if (e.isSymbolicLink()) {
      add(out, () => `${indent}${e.name}@`);
    } else if (e.isDirectory()) {
      let note = '';
      if (depth > 1) {
        if (VCS.has(e.name)) note = '  (version control, not expanded)';
        else if (sensitiveReason(childRel, 'list')) note = '  (protected, not expanded)';
        else if (matchIgnore(level, abs, true) === 'ignore') note = '  (ignored, not expanded)';
      }
      add(out, () => `${indent}${e.name}/${note}`);
      if (depth > 1 && !note) listChild(dir, e.name, abs, childRel, depth, level, out);
    } else {
      // Entries are described from lstat, never opened: a named pipe here cannot block the listing.
      add(out, () => `${indent}${e.name}${describeEntry(dir.at(e.name))}`);
    }
  }
}

/** A subdirectory, opened from its parent without following a link and checked to be at `abs`. */
function listChild(
  parent: OpenDir,
  name: string,
  abs: string,
  rel: string,
  depth: number,
  level: Level | undefined,
  out: Listing,
): void {
  let child: OpenDir;
  try {
    const opened = openDirChecked(parent.at(name), abs, { check: false, noFollow: true });
    child = { ...opened, path: abs };
    try {
      assertOpenedAt(child.fd, abs, abs);
    } catch (err) {
      child.close();
      throw err;
    }
  } catch {
    return; // replaced by a link or a file, or vanished, while listing: not expanded
  }
  try {
    const children = readNames(child);
    const names = new Set(children.map((c) => c.name));
    const childLevel = levelFor(abs, (n) => names.has(n), level) ?? level;
    list(child, rel, depth - 1, childLevel, children, out);
  } finally {
    child.close();
  }
}

function describeEntry(at: string): string {
  try {
    const st = lstatSync(at);
    const special = specialKind(st);
    if (special) return `  [${special}]`;
    return `  ${formatBytes(st.size)}${hasOtherNames(st) ? `  [${st.nlink} hard links]` : ''}`;
  } catch {
    return ''; // vanished while listing
  }
}

/** The names in an opened directory, read through its descriptor. */
function readNames(dir: OpenDir): Dirent[] {
  try {
    return readdirSync(dir.at('.'), { withFileTypes: true });
  } catch {
    return [];
  }
}

async function execute({ path, depth }: Input, ctx: ToolContext): Promise<ToolOutput> {
  const ws = ctx.workspace;
  const abs = await ws.resolve(path, 'list');
  const shown = ws.display(abs);
  let dir: OpenDir;
  let entries: Dirent[];
  try {
    const st = lstatSync(abs);
    const special = specialKind(st);
    if (special)
      throw new ToolError(
        'INVALID_PARAMS',
        `${shown} is a ${special}, not a directory; list_directory lists directories.`,
      );
    if (!st.isDirectory())
      throw new ToolError('INVALID_PARAMS', `${shown} is a file, not a directory; use read_file to read it.`);
    // O_DIRECTORY|O_NOFOLLOW, then the descriptor must be the directory the guard checked.
    dir = openDirChecked(abs, shown);
  } catch (err) {
    throw fsError(err, shown);
  }
  const out: Listing = { lines: [], omitted: 0 };
  try {
    entries = readdirSync(dir.at('.'), { withFileTypes: true });
    list(dir, '', depth, depth > 1 ? rootLevel(abs, filter, entries) : undefined, entries, out);
  } catch (err) {
    throw fsError(err, shown);
  } finally {
    dir.close();
  }
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
  group: FILES,
  usualEffect: 'read',
  async effect(args, ctx) {
    const abs = await ctx.workspace.resolve(args.path, 'list');
    return { effect: 'read', subject: { paths: [abs] } };
  },
  annotations: { idempotent: true },
  execute,
});
