import { lstatSync, realpathSync, statSync, type Stats } from 'node:fs';
import { join, sep } from 'node:path';
import picomatch from 'picomatch';
import { z } from 'zod';
import { defineTool, ToolError, type ToolContext, type ToolOutput } from '@toolbelt/core';
import { SEARCH } from './group.js';
import { fsError, isMissing } from '../errno.js';
import { specialKind } from '../workspace/special.js';
import { SearchFilter } from '../walk/filters.js';
import { walk } from '../walk/walk.js';
import { formatGlob } from './glob_format.js';

const DEFAULT_LIMIT = 100;

const description = `Find files by name pattern (e.g. "src/**/*.ts") under path, newest first; skips .git and gitignored unless include_ignored. Counts matches past limit (default ${DEFAULT_LIMIT}).`;

const input = z.object({
  pattern: z.string().min(1),
  path: z.string().optional(),
  limit: z.number().int().min(1).max(2000).optional(),
  include_ignored: z.boolean().optional(),
});

type Input = z.infer<typeof input>;

const withIgnore = new SearchFilter();
const withoutIgnore = new SearchFilter({ ignoreFiles: false });

export interface GlobMatch {
  abs: string;
  /** The path relative to the searched directory, as the pattern matched it. */
  rel: string;
  mtimeMs: number;
}

export interface GlobOptions {
  includeIgnored?: boolean;
  signal?: AbortSignal;
  /**
   * The real path of the directory the walk starts in (dir joined with the pattern's literal
   * part, "src/lib" of "src/lib/**"); undefined finds nothing, a throw refuses. That part may pass
   * through a symlink (`procroot/etc/*` with `procroot -> /proc/self/root`). Default: its real
   * path when that is inside dir.
   */
  resolveStart?: (abs: string) => Promise<string | undefined>;
}

async function realInside(dir: string, abs: string): Promise<string | undefined> {
  try {
    const real = realpathSync(abs);
    const base = realpathSync(dir);
    return real === base || real.startsWith(base.endsWith(sep) ? base : base + sep) ? real : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The test of a path against the pattern. `**` + `/*.ts` (any depth, one literal extension, the
 * commonest glob) is a suffix test: picomatch's regular expression for it, with its guards against
 * `.` and `..` segments (a walk never yields those), costs more per file than the walk itself.
 */
export function pathMatcher(pattern: string): (rel: string) => boolean {
  const ext = /^\*\*\/\*(\.[\w-]+)$/.exec(pattern);
  if (ext) {
    const suffix = ext[1];
    return (rel) => rel.endsWith(suffix);
  }
  const re = picomatch.makeRe(pattern, { dot: true });
  return (rel) => re.test(rel);
}

/** Every file under `dir` whose path relative to it matches `pattern`, newest first. */
export async function globFiles(dir: string, pattern: string, opts: GlobOptions = {}): Promise<GlobMatch[]> {
  const clean = pattern.replace(/^\.\/+/, '');
  const matches = pathMatcher(clean);
  // Start the walk at the pattern's literal directory part ("src/lib" of "src/lib/**/*.ts").
  const { base, isGlob } = picomatch.scan(clean);
  const prefix = isGlob ? base : '';
  const start = prefix ? await (opts.resolveStart ?? ((abs) => realInside(dir, abs)))(join(dir, prefix)) : dir;
  const found: GlobMatch[] = [];
  if (start === undefined) return [];
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
      const matched = prefix ? `${prefix}/${rel}` : rel;
      if (!matches(matched)) return;
      const st = lstatSync(abs, { throwIfNoEntry: false });
      // Undefined when it vanished during the walk. A hard-linked file is listed: its name is
      // inside, and glob reads no content (read_file and grep judge its other names).
      if (st) found.push({ abs, rel: matched, mtimeMs: st.mtimeMs });
    },
  });
  return found.sort((a, b) => b.mtimeMs - a.mtimeMs || (a.abs < b.abs ? -1 : a.abs > b.abs ? 1 : 0));
}

async function execute(args: Input, ctx: ToolContext): Promise<ToolOutput> {
  const ws = ctx.workspace;
  const dir = await ws.resolve(args.path ?? '.', 'list');
  let st: Stats;
  try {
    st = lstatSync(dir);
  } catch (err) {
    if (!isMissing(err)) throw fsError(err, ws.display(dir));
    throw new ToolError('NOT_FOUND', `${ws.display(dir)} does not exist. Check the path with list_directory.`);
  }
  if (!st.isDirectory()) {
    const what = specialKind(st) ?? 'file';
    throw new ToolError('INVALID_PARAMS', `${ws.display(dir)} is a ${what}; path must be a directory to search in.`);
  }
  if (args.pattern.split('/').includes('..')) {
    throw new ToolError(
      'INVALID_PARAMS',
      'the pattern must not contain ".."; set path to the directory to search instead.',
    );
  }
  const resolveStart = async (abs: string) => {
    try {
      // Through the guard: the pattern's directory part may lead out of the roots by a symlink.
      return await ws.resolve(abs, 'list');
    } catch (err) {
      if (!(err instanceof ToolError)) throw err;
      throw new ToolError(
        err.code,
        `the pattern ${JSON.stringify(args.pattern)} starts in a directory glob may not list: ${err.message}`,
      );
    }
  };
  const matches = await globFiles(dir, args.pattern, {
    includeIgnored: args.include_ignored === true,
    signal: ctx.signal,
    resolveStart,
  });
  const limit = args.limit ?? DEFAULT_LIMIT;
  const where = ws.display(dir);
  if (matches.length === 0) {
    const hint = args.include_ignored ? '' : ' Ignored files were skipped; include_ignored: true includes them.';
    const deep =
      !args.pattern.includes('/') && !args.pattern.includes('**')
        ? ` "${args.pattern}" only matches directly in ${where}; use "**/${args.pattern}" for any depth.`
        : '';
    return {
      content: `No files match ${JSON.stringify(args.pattern)} in ${where}.${deep}${hint}`,
      metadata: { matches: 0 },
    };
  }
  const shown = matches.slice(0, limit).map((m) => m.rel);
  const more =
    matches.length > limit ? `\n(${matches.length - limit} more not shown; narrow the pattern or raise limit)` : '';
  return { content: formatGlob(shown, where) + more, metadata: { matches: matches.length, shown: shown.length } };
}

export const glob = defineTool({
  name: 'glob',
  title: 'Find files',
  description,
  input,
  category: 'search',
  group: SEARCH,
  usualEffect: 'read',
  async effect(args, ctx) {
    const abs = await ctx.workspace.resolve(args.path ?? '.', 'list');
    return { effect: 'read', subject: { paths: [abs] } };
  },
  annotations: { idempotent: true },
  execute,
});
