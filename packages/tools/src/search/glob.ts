import { statSync } from 'node:fs';
import { join } from 'node:path';
import picomatch from 'picomatch';
import { z } from 'zod';
import { defineTool, ToolError, type ToolContext, type ToolOutput } from '@toolbelt/core';
import { workspaceOf } from '../fs/common.js';
import { SearchFilter } from './filters.js';
import { walk } from './walk.js';

const DEFAULT_LIMIT = 100;

const description = `Find files by name with a glob pattern; newest first (most recently modified at the top).
- Patterns: "**/*.ts" (any depth), "src/**/*.{js,jsx}", "*.md" (this directory only), "**/test_*.py". Matched against paths relative to path.
- Skips .git and files ignored by .gitignore/.ignore unless include_ignored is true. Returns files, not directories.
- Shows at most limit paths (default ${DEFAULT_LIMIT}) and says how many more matched.`;

const input = z.object({
  pattern: z.string().min(1).describe('Glob pattern, relative to path (e.g. "**/*.ts").'),
  path: z.string().optional().describe('Directory to search, absolute or relative to the workspace root (default: the workspace root).'),
  limit: z.number().int().min(1).max(2000).optional().describe(`Maximum paths returned (default ${DEFAULT_LIMIT}).`),
  include_ignored: z.boolean().optional().describe('Include files that .gitignore/.ignore exclude (default false).'),
});

type Input = z.infer<typeof input>;

const withIgnore = new SearchFilter();
const withoutIgnore = new SearchFilter({ ignoreFiles: false });

export interface GlobMatch {
  abs: string;
  mtimeMs: number;
}

/** Every file under `dir` whose path relative to it matches `pattern`, newest first. */
export async function globFiles(dir: string, pattern: string, opts: { includeIgnored?: boolean; signal?: AbortSignal } = {}): Promise<GlobMatch[]> {
  const clean = pattern.replace(/^\.\/+/, '');
  const re = picomatch.makeRe(clean, { dot: true });
  // Start the walk at the pattern's literal directory part ("src/lib" of "src/lib/**/*.ts").
  const { base, isGlob } = picomatch.scan(clean);
  const prefix = isGlob ? base : '';
  const start = prefix ? join(dir, prefix) : dir;
  const found: GlobMatch[] = [];
  try {
    if (!statSync(start).isDirectory()) return [];
  } catch {
    return [];
  }
  await walk({
    root: start,
    filter: opts.includeIgnored ? withoutIgnore : withIgnore,
    ...(opts.signal ? { signal: opts.signal } : {}),
    onFile(abs, rel) {
      if (!re.test(prefix ? `${prefix}/${rel}` : rel)) return;
      const st = statSync(abs, { throwIfNoEntry: false });
      // Undefined when it vanished during the walk.
      if (st) found.push({ abs, mtimeMs: st.mtimeMs });
    },
  });
  return found.sort((a, b) => b.mtimeMs - a.mtimeMs || (a.abs < b.abs ? -1 : a.abs > b.abs ? 1 : 0));
}

async function execute(args: Input, ctx: ToolContext): Promise<ToolOutput> {
  const ws = workspaceOf(ctx);
  const dir = await ws.resolve(args.path ?? '.', 'list');
  let isDir = false;
  try {
    isDir = statSync(dir).isDirectory();
  } catch {
    throw new ToolError('NOT_FOUND', `${ws.display(dir)} does not exist. Check the path with list_directory.`);
  }
  if (!isDir) throw new ToolError('INVALID_PARAMS', `${ws.display(dir)} is a file; path must be a directory to search in.`);
  if (args.pattern.split('/').includes('..')) {
    throw new ToolError('INVALID_PARAMS', 'the pattern must not contain ".."; set path to the directory to search instead.');
  }
  const matches = await globFiles(dir, args.pattern, { includeIgnored: args.include_ignored === true, signal: ctx.signal });
  const limit = args.limit ?? DEFAULT_LIMIT;
  const where = ws.display(dir);
  if (matches.length === 0) {
    const hint = args.include_ignored ? '' : ' Ignored files were skipped; include_ignored: true includes them.';
    const deep = !args.pattern.includes('/') && !args.pattern.includes('**') ? ` "${args.pattern}" only matches directly in ${where}; use "**/${args.pattern}" for any depth.` : '';
    return { content: `No files match ${JSON.stringify(args.pattern)} in ${where}.${deep}${hint}`, metadata: { matches: 0 } };
  }
  const shown = matches.slice(0, limit).map((m) => ws.display(m.abs));
  const more = matches.length > limit ? `\n(${matches.length - limit} more not shown; narrow the pattern or raise limit)` : '';
  return { content: shown.join('\n') + more, metadata: { matches: matches.length, shown: shown.length } };
}

export const glob = defineTool({
  name: 'glob',
  title: 'Find files',
  description,
  input,
  category: 'search',
  async effect(args, ctx) {
    const abs = await workspaceOf(ctx).resolve(args.path ?? '.', 'list');
    return { effect: 'read', subject: { paths: [abs] } };
  },
  annotations: { idempotent: true },
  execute,
});
