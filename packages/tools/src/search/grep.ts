// The grep tool: resolves where to search, runs the engine (search/engine.ts), joins the hits set
// aside during the search that may be shown (linked.ts), and formats the answer (grep-format.ts).
// Its input and the checks on it are in grep-input.ts.
import { stat } from 'node:fs/promises';
import { defineTool, ToolError, type Tool, type ToolContext, type ToolOutput, type Workspace } from '@toolbelt/core';
import { SEARCH } from './group.js';
import { absentOr } from '../errno.js';
import { sensitiveReason } from '../workspace/sensitive.js';
import { assertPlainFile } from '../workspace/special.js';
import { findRg, runGrep, type SearchSettings } from './engine.js';
import { footer, formatHits, formatLines, linkNote } from './grep-format.js';
import { chooseEngine, compileArgs, description, input, queryOf, validate, type Input } from './grep-input.js';
import { SearchPool } from './js/pool.js';
import { lateHits, recap, storeCopyTest } from './linked.js';
import type { Collector, FileHit, GrepQuery } from './results.js';

export { MAX_PATTERN_CHARS } from './grep-input.js';

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

/** The real path to search, checked: it exists and is a directory or a plain file. */
async function searchRoot(ws: Workspace, path: string | undefined) {
  const root = await ws.resolve(path ?? '.', 'read');
  const st = await stat(root).catch(absentOr(ws.display(root)));
  if (!st)
    throw new ToolError('NOT_FOUND', `${ws.display(root)} does not exist. Check the path with list_directory or glob.`);
  // A file named by path is refused here with a reason; one met in the walk is skipped.
  assertPlainFile(st, ws.display(root), { roots: ws.roots, abs: root });
  return { root, isFile: st.isFile() };
}

/** Files whose hits wait for the guard's last word: secrets, and toolbelt's own files (the guard knows them by path too). */
function holdTest(ws: Workspace): (abs: string) => boolean {
  return (abs) =>
    ws.isProtected ? ws.isProtected(abs, 'read') : sensitiveReason(ws.display(abs), 'read') !== undefined;
}

type Found = Awaited<ReturnType<typeof lateHits>> & { hits: FileHit[]; capped: boolean; engine: string };

/** The answer: the hits formatted with the footer, or why nothing was found. */
function answer(args: Input, q: GrepQuery, ws: Workspace, found: Found & { fallback?: string }): ToolOutput {
  const { hits, capped, dropped, withheld } = found;
  const links = withheld ? { withheld } : {};
  if (hits.length === 0) {
    const hint =
      q.ignoreFiles && !q.isFile
        ? ' Files ignored by .gitignore were skipped; include_ignored: true searches them.'
        : '';
    const cut = dropped ? ` ${dropped} protected file(s) matched but are not shown.` : '';
    const linkCut = withheld ? ` ${linkNote(withheld)}` : '';
    return {
      content: `No matches for ${JSON.stringify(args.pattern)} in ${ws.display(q.root)}.${hint}${cut}${linkCut}`,
      metadata: { engine: found.engine, files: 0, matches: 0, ...links },
    };
  }
  const shown = q.before + q.after > 0;
  const body = args.output_mode === 'lines' ? formatLines(ws, hits, shown) : formatHits(ws, q.mode, hits, shown);
  return {
    content: `${body.text}\n\n${footer(args, q.mode, { capped, dropped, withheld }, body, hits.length, q.maxResults)}`,
    metadata: {
      engine: found.engine,
      ...(found.fallback ? { fallback: found.fallback } : {}),
      files: hits.length,
      matches: body.lines,
      capped,
      ...links,
    },
  };
}

export function createGrep(settings: SearchSettings = {}): Tool<Input> {
  const pool = new SearchPool();
  let rgPath: string | undefined | null = null;
  const rg = () => (rgPath === null ? (rgPath = findRg(settings.rgPath)) : rgPath);

  async function execute(args: Input, ctx: ToolContext): Promise<ToolOutput> {
    const ws = ctx.workspace;
    const { pattern, types } = compileArgs(args);
    const { root, isFile } = await searchRoot(ws, args.path);
    const q = queryOf(args, root, isFile, types, ctx.signal);
    const { engine, path } = chooseEngine(settings, rg());
    const hold = holdTest(ws);
    const run = await runGrep(q, pattern, {
      engine,
      ...(path ? { rgPath: path } : {}),
      pool,
      onHit: progressReporter(ctx, q.mode, q.maxResults),
      hold,
      admitLinked: storeCopyTest(),
    });
    const late = await lateHits(ws, run, hold, ctx.signal);
    const { hits, capped } = recap(q.mode, q.maxResults, run, late.late);
    return answer(args, q, ws, {
      ...late,
      hits,
      capped,
      engine: run.engine,
      ...(run.fallback ? { fallback: run.fallback } : {}),
    });
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
    validate,
    execute,
    dispose: () => pool.close(),
  });
}
