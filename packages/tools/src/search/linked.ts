// Hits in hard-linked files (workspace/links.ts): a package store's copy is shown as it arrives;
// the rest wait until the search ends, when one walk of the roots looks for every name of their
// inodes. Those found only inside join the results; the others are counted and named in the
// footer, never silently dropped. Hits in protected files wait too, for the guard's last word.
import type { Workspace } from '@toolbelt/core';
import { LinkProof, namedOnlyInside } from '../workspace/links.js';
import type { GrepRun } from './engine.js';
import { Collector, type FileHit, type OutputMode } from './results.js';

/** The collector's test for a hit in a file with other names: shown at once when it is a store copy. */
export function storeCopyTest(): (hit: FileHit) => boolean {
  const proof = new LinkProof();
  return (hit) => hit.link !== undefined && proof.storeCopy(hit.path, hit.link);
}

/** The waiting hits whose every name is inside the roots (marks removed), and how many stay withheld. */
export function settleLinked(
  ws: Workspace,
  run: GrepRun,
  signal?: AbortSignal,
): { admitted: FileHit[]; withheld: number } {
  if (run.linked.length === 0) return { admitted: [], withheld: 0 };
  const inside = namedOnlyInside(
    ws.roots,
    run.linked.map((h) => ({ path: h.path, id: h.link! })),
    signal,
  );
  const admitted: FileHit[] = [];
  for (const { link: _link, ...hit } of run.linked) if (inside.has(hit.path)) admitted.push(hit);
  return { admitted, withheld: run.linked.length - admitted.length };
}

/** The engine's hits with late ones (admitted after the search) joined, sorted by path and cut to max_results again. */
export function recap(
  mode: OutputMode,
  max: number,
  run: GrepRun,
  late: FileHit[],
): { hits: FileHit[]; capped: boolean } {
  if (late.length === 0) return { hits: run.hits, capped: run.capped };
  const sorted = [...run.hits, ...late].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const c = new Collector(mode, max);
  for (const hit of sorted) if (!c.add(hit)) break;
  return { hits: c.hits, capped: run.capped || c.capped };
}

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
export async function lateHits(ws: Workspace, run: GrepRun, hold: (abs: string) => boolean, signal: AbortSignal) {
  const { admitted, withheld } = settleLinked(ws, run, signal);
  const { allowed, dropped } = await admitHeld(ws, [...run.held, ...admitted.filter((h) => hold(h.path))]);
  return { late: [...admitted.filter((h) => !hold(h.path)), ...allowed], dropped, withheld };
}
