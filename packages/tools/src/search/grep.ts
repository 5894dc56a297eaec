import { stat } from 'node:fs/promises';
import { z } from 'zod';
import { defineTool, ToolError, type Tool, type ToolContext, type ToolOutput, type Workspace } from '@toolbelt/core';
import { SEARCH } from './group.js';
import { absentOr } from '../errno.js';
import { sensitiveReason } from '../workspace/sensitive.js';
import { assertPlainFile } from '../workspace/special.js';
import { findRg, runGrep, type GrepRun, type SearchSettings } from './engine.js';
import { SearchPool } from './js/pool.js';
import { recap, settleLinked, storeCopyTest } from './linked.js';
import { compilePattern, type CompiledPattern } from './regex.js';
import type { Collector, FileHit, GrepQuery, OutputMode } from './results.js';
import { typeGlobs } from '../walk/file-types.js';

const DEFAULT_MAX = 200;
/**
 * Far beyond any pattern written by hand; a longer one is pasted text, and compiling or analysing
 * megabytes of pattern costs seconds and gigabytes (and is too long for rg's argument list).
 */
export const MAX_PATTERN_CHARS = 10_000;
const SHOWN_CHARS = 500;

const description = `Search files by regex (JavaScript syntax, max ${MAX_PATTERN_CHARS.toLocaleString('en-US')} chars); skips binary, .git, gitignored unless include_ignored. Counts matches past max_results (default ${DEFAULT_MAX}).`;

const input = z.object({
  pattern: z.string(),
  path: z.string().optional(),
  glob: z
    .union([z.string(), z.array(z.string())])
    .optional()
    .describe('Files, e.g. "*.{ts,js}"; "!" excludes.'),
  type: z.string().optional().describe('e.g. "ts,py".'),
  case_insensitive: z.boolean().optional(),
  literal: z.boolean().optional(),
  // `lines` is content as grep -n prints it (file:line:text), for callers that parse such lines.
  output_mode: z.enum(['content', 'files_with_matches', 'count', 'lines']).default('content'),
  // grep's -C, -B and -A: a side given on its own wins over context. Their bound of 50 is checked in
  // validate, so the definitions a model reads do not repeat it three times.
  context: z.number().int().min(0).max(50).optional(),
  before: z.number().int().min(0).optional(),
  after: z.number().int().min(0).optional(),
  multiline: z.boolean().optional().describe('Match across lines.'),
  max_results: z.number().int().min(1).max(5000).optional(),
  include_ignored: z.boolean().optional(),
});

type Input = z.infer<typeof input>;

/**
 * Hits in protected files (.env, keys) are set aside during the search; those a policy rule allows
 * (the guard decides) join the results, the rest are only counted.
 */
async function admitHeld(ws: Workspace, held: FileHit[]): Promise<{ allowed: FileHit[]; dropped: number }> {
  const allowed: FileHit[] = [];
  for (const hit of held) {
    if (
      await ws.resolve(hit.path, 'read').then(
        () => true,
        () => false,
      )
    )
      allowed.push(hit);
  }
  return { allowed, dropped: held.length - allowed.length };
}

/** Hits set aside during the search that may be shown (hard-linked files proven, protected files allowed), and what stays out. */
async function lateHits(ws: Workspace, run: GrepRun, hold: (abs: string) => boolean, signal: AbortSignal) {
  const { admitted, withheld } = settleLinked(ws, run, signal);
  const { allowed, dropped } = await admitHeld(ws, [...run.held, ...admitted.filter((h) => hold(h.path))]);
  return { late: [...admitted.filter((h) => !hold(h.path)), ...allowed], dropped, withheld };
}

function clip(text: string): string {
  return text.length > SHOWN_CHARS ? `${text.slice(0, SHOWN_CHARS)}… [line cut]` : text;
}

const MAX_CONTEXT = 50;

function contextTooLong({ before, after }: Input): string | undefined {
  const side = (before ?? 0) > MAX_CONTEXT ? 'before' : (after ?? 0) > MAX_CONTEXT ? 'after' : undefined;
  return side ? `\`${side}\` is at most ${MAX_CONTEXT} lines` : undefined;
}

/** grep -n's form: `file:12:match` and `file-11-context`, `--` between groups that do not touch. */
function formatLines(ws: Workspace, hits: FileHit[], context: boolean): { text: string; lines: number } {
  const out: string[] = [];
  let matched = 0;
  for (const h of hits) {
    const name = ws.display(h.path);
    let prev = 0;
    for (const l of h.lines ?? []) {
      if (context && out.length && (prev === 0 || l.n > prev + 1)) out.push('--');
      out.push(`${name}${l.match ? ':' : '-'}${l.n}${l.match ? ':' : '-'}${clip(l.text)}`);
      if (l.match) matched++;
      prev = l.n;
    }
  }
  return { text: out.join('\n'), lines: matched };
}

function formatHits(
  ws: Workspace,
  mode: OutputMode,
  hits: FileHit[],
  context: boolean,
): { text: string; lines: number } {
  if (mode === 'files_with_matches') return { text: hits.map((h) => ws.display(h.path)).join('\n'), lines: 0 };
  if (mode === 'count') {
    const total = hits.reduce((n, h) => n + (h.count ?? 0), 0);
    return { text: hits.map((h) => `${ws.display(h.path)}:${h.count}`).join('\n'), lines: total };
  }
  const blocks: string[] = [];
  let matched = 0;
  for (const h of hits) {
    const out = [ws.display(h.path)];
    let prev = 0;
    for (const l of h.lines ?? []) {
      // A gap only means something when context lines are shown; without them every line is a match.
      if (context && prev && l.n > prev + 1) out.push('--');
      out.push(`${l.n}${l.match ? ':' : '-'}${clip(l.text)}`);
      if (l.match) matched++;
      prev = l.n;
    }
    blocks.push(out.join('\n'));
  }
  return { text: blocks.join('\n\n'), lines: matched };
}

interface Left {
  capped: boolean;
  /** Protected files not shown. */
  dropped: number;
  /** Hard-linked files not shown (another name may be outside). */
  withheld: number;
}

function linkNote(withheld: number): string {
  const files = withheld === 1 ? '1 hard-linked file matched but is' : `${withheld} hard-linked files matched but are`;
  return `${files} not shown: another name of ${withheld === 1 ? 'it' : 'theirs'} may be outside the workspace (copies and package store files are shown).`;
}

function footer(
  args: Input,
  mode: OutputMode,
  left: Left,
  shown: { lines: number },
  files: number,
  max: number,
): string {
  const notes: string[] = [];
  const fileWord = `${files} file${files === 1 ? '' : 's'}`;
  // Capped content and file lists hold max_results items: the summary would repeat that number.
  const lineWord = `${shown.lines} matching line${shown.lines === 1 ? '' : 's'} in ${fileWord}.`;
  if (mode === 'count') notes.push(lineWord);
  else if (!left.capped) notes.push(mode === 'content' ? lineWord : `${fileWord}.`);
  if (left.capped) notes.push(`Stopped at max_results (${max}); narrow with path, glob or type, or raise max_results.`);
  if (left.dropped)
    notes.push(`${left.dropped} protected file${left.dropped === 1 ? '' : 's'} (.env, keys, credentials) not shown.`);
  if (left.withheld) notes.push(linkNote(left.withheld));
  if (args.multiline && mode === 'count') notes.push('(In multiline mode, count is the number of matches.)');
  return notes.join(' ');
}

function patternTooLong(pattern: string): string | undefined {
  if (pattern.length <= MAX_PATTERN_CHARS) return undefined;
  return `\`pattern\` is ${pattern.length.toLocaleString('en-US')} characters; the limit is ${MAX_PATTERN_CHARS.toLocaleString('en-US')}. Search for a shorter distinctive part of the text, such as one line of it.`;
}

function queryOf(args: Input, root: string, isFile: boolean, typeGlobs: string[], signal: AbortSignal): GrepQuery {
  return {
    root,
    isFile,
    mode: args.output_mode === 'lines' ? 'content' : (args.output_mode ?? 'content'),
    before: args.before ?? args.context ?? 0,
    after: args.after ?? args.context ?? 0,
    multiline: args.multiline === true,
    globs: typeof args.glob === 'string' ? [args.glob] : (args.glob ?? []),
    typeGlobs,
    ignoreFiles: args.include_ignored !== true,
    maxResults: args.max_results ?? DEFAULT_MAX,
    signal,
  };
}

/** Progress as hits arrive, at most ten times a second. */
function progressReporter(
  ctx: ToolContext,
  mode: GrepQuery['mode'],
  max: number,
): (hit: FileHit, c: Collector) => void {
  let last = 0;
  return (hit, c) => {
    const now = Date.now();
    if (now - last < 100) return;
    last = now;
    ctx.emit({
      type: 'progress',
      progress: mode === 'content' ? c.matchedLines : c.hits.length,
      total: max,
      message: `${c.hits.length} files so far; latest ${ctx.workspace.display(hit.path)}`,
    });
  };
}

/** The pattern compiled and the file types expanded to globs; a bad one is the caller's to fix. */
function compileArgs(args: Input): { pattern: CompiledPattern; types: string[] } {
  try {
    const pattern = compilePattern(args.pattern, {
      caseInsensitive: args.case_insensitive,
      literal: args.literal,
      multiline: args.multiline,
    });
    return { pattern, types: args.type ? typeGlobs(args.type) : [] };
  } catch (err) {
    throw new ToolError('INVALID_PARAMS', (err as Error).message, { recoverable: true });
  }
}

/** rg when it was found and not turned off, the built-in engine otherwise; rg demanded but missing is an error. */
function chooseEngine(
  settings: SearchSettings,
  path: string | undefined,
): { engine: 'js' | 'rg'; path: string | undefined } {
  const engine = settings.engine ?? 'auto';
  if (engine === 'rg' && !path) {
    throw new ToolError(
      'EXECUTION_FAILED',
      `search.engine is "rg" but no rg binary was found${settings.rgPath ? ` at ${settings.rgPath}` : ' on PATH'}. Install ripgrep or set search.engine to "auto".`,
    );
  }
  return { engine: engine === 'js' || !path ? 'js' : 'rg', path };
}

export function createGrep(settings: SearchSettings = {}): Tool<Input> {
  const pool = new SearchPool();
  let rgPath: string | undefined | null = null;
  const rg = () => (rgPath === null ? (rgPath = findRg(settings.rgPath)) : rgPath);

  async function execute(args: Input, ctx: ToolContext): Promise<ToolOutput> {
    const ws = ctx.workspace;
    const { pattern, types } = compileArgs(args);
    const root = await ws.resolve(args.path ?? '.', 'read');
    const st = await stat(root).catch(absentOr(ws.display(root)));
    if (!st)
      throw new ToolError(
        'NOT_FOUND',
        `${ws.display(root)} does not exist. Check the path with list_directory or glob.`,
      );
    // A file named by path is refused here with a reason; one met in the walk is skipped.
    assertPlainFile(st, ws.display(root), { roots: ws.roots, abs: root });
    const q = queryOf(args, root, st.isFile(), types, ctx.signal);
    const { mode, maxResults: max } = q;
    const { engine, path } = chooseEngine(settings, rg());
    const onHit = progressReporter(ctx, mode, max);
    // The guard knows toolbelt's own files by path too (the --config file, the gateway database).
    const hold = (abs: string) =>
      ws.isProtected ? ws.isProtected(abs, 'read') : sensitiveReason(ws.display(abs), 'read') !== undefined;
    const run = await runGrep(q, pattern, {
      engine,
      ...(path ? { rgPath: path } : {}),
      pool,
      onHit,
      hold,
      admitLinked: storeCopyTest(),
    });
    const { late, dropped, withheld } = await lateHits(ws, run, hold, ctx.signal);
    const { hits, capped } = recap(mode, max, run, late);
    const where = ws.display(root);
    const links = withheld ? { withheld } : {};
    if (hits.length === 0) {
      const hint =
        q.ignoreFiles && !q.isFile
          ? ' Files ignored by .gitignore were skipped; include_ignored: true searches them.'
          : '';
      const cut = dropped ? ` ${dropped} protected file(s) matched but are not shown.` : '';
      const linkCut = withheld ? ` ${linkNote(withheld)}` : '';
      return {
        content: `No matches for ${JSON.stringify(args.pattern)} in ${where}.${hint}${cut}${linkCut}`,
        metadata: { engine: run.engine, files: 0, matches: 0, ...links },
      };
    }
    const shown = q.before + q.after > 0;
    const body = args.output_mode === 'lines' ? formatLines(ws, hits, shown) : formatHits(ws, mode, hits, shown);
    return {
      content: `${body.text}\n\n${footer(args, mode, { capped, dropped, withheld }, body, hits.length, max)}`,
      metadata: {
        engine: run.engine,
        ...(run.fallback ? { fallback: run.fallback } : {}),
        files: hits.length,
        matches: body.lines,
        capped,
        ...links,
      },
    };
  }

  return defineTool({
    name: 'grep',
    title: 'Search file contents',
    description,
    input,
    category: 'search',
    group: SEARCH,
    usualEffect: 'read',
    async effect(args, ctx) {
      const abs = await ctx.workspace.resolve(args.path ?? '.', 'read');
      return { effect: 'read', subject: { paths: [abs] } };
    },
    annotations: { idempotent: true },
    validate: (args) => patternTooLong(args.pattern) ?? contextTooLong(args),
    execute,
    dispose: () => pool.close(),
  });
}
