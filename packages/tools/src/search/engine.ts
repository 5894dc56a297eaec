// Which grep engine runs: ripgrep when a binary is configured or on PATH, the JS engine otherwise
// (and for patterns only JavaScript understands). Both return the same results.
import { accessSync, constants, statSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { trustedProgram } from '../process/programs.js';
import { runJs } from './js/engine.js';
import type { SearchPool } from './js/pool.js';
import type { CompiledPattern } from './regex.js';
import { Collector, type FileHit, type GrepQuery } from './results.js';
import { RgBlockedError, runRg, RgRegexError } from './rg.js';

export type { SearchSettings } from './section.js';

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/**
 * The rg binary to use, or undefined when there is none: a configured absolute path as given, else
 * the configured name (or `rg`) from a fixed place on PATH, never from a PATH entry inside the
 * workspace or node_modules (process/programs.ts).
 */
export function findRg(configured?: string): string | undefined {
  if (configured && isAbsolute(configured)) return executable(configured) ? configured : undefined;
  return trustedProgram(configured || 'rg');
}

export interface GrepRun {
  hits: FileHit[];
  /** Hits in files the `hold` option set aside. */
  held: FileHit[];
  /** Hits in hard-linked files `admitLinked` did not admit, still to be judged. */
  linked: FileHit[];
  capped: boolean;
  engine: 'rg' | 'js';
  /** Why the JS engine ran although rg was asked for. */
  fallback?: string;
}

export interface RunOptions {
  /** The engine to use; 'rg' needs rgPath, and falls back to JS for patterns rg cannot run. */
  engine: 'rg' | 'js';
  rgPath?: string;
  pool: SearchPool;
  /** Each file's hits as they arrive (for progress). */
  onHit?: (hit: FileHit, totals: Collector) => void;
  /** Files whose hits are set aside, uncounted (protected files). */
  hold?: (path: string) => boolean;
  /** A hit in a file with other names: true to show it now, false to set it aside in `linked`. */
  admitLinked?: (hit: FileHit) => boolean;
}

/** Runs one search on the chosen engine; hits come back sorted by path. */
export async function runGrep(q: GrepQuery, p: CompiledPattern, opts: RunOptions): Promise<GrepRun> {
  let fallback: string | undefined;
  if (opts.engine === 'rg') {
    if (!opts.rgPath) fallback = 'rg is not installed';
    else if (p.rust === undefined) fallback = `the pattern uses ${p.jsOnly}, which rg does not support`;
    else if (q.isFile) fallback = 'a single file is searched in-process';
    else {
      const collector = new Collector(q.mode, q.maxResults, opts);
      try {
        await runRg(opts.rgPath, q, p, collector);
        return {
          hits: collector.sorted(),
          held: collector.held,
          linked: collector.linked,
          capped: collector.capped,
          engine: 'rg',
        };
      } catch (err) {
        if (err instanceof RgBlockedError) fallback = err.message;
        else if (err instanceof RgRegexError) fallback = `rg rejected the pattern (${err.message.split('\n').pop()})`;
        else throw err;
      }
    }
  }
  const collector = new Collector(q.mode, q.maxResults, opts);
  await runJs(q, p, collector, opts.pool);
  return {
    hits: collector.sorted(),
    held: collector.held,
    linked: collector.linked,
    capped: collector.capped,
    engine: 'js',
    ...(fallback ? { fallback } : {}),
  };
}
