// Which grep engine runs: ripgrep when a binary is configured or on PATH, the JS engine otherwise
// (and for patterns only JavaScript understands). Both return the same results.
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';
import { runJs } from './js/engine.js';
import type { SearchPool } from './js/pool.js';
import type { CompiledPattern } from './regex.js';
import { Collector, type FileHit, type GrepQuery } from './results.js';
import { RgBlockedError, runRg, RgRegexError } from './rg.js';

export type { EngineChoice, SearchSettings } from './section.js';

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

const cache = new Map<string, string | undefined>();

/** The rg binary to use, or undefined when there is none. */
export function findRg(configured?: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (configured) return isAbsolute(configured) && executable(configured) ? configured : findOnPath(configured, env);
  return findOnPath('rg', env);
}

function findOnPath(name: string, env: NodeJS.ProcessEnv): string | undefined {
  const key = `${name}\0${env.PATH ?? ''}`;
  if (cache.has(key)) return cache.get(key);
  let found: string | undefined;
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, name);
    if (executable(candidate)) {
      found = candidate;
      break;
    }
  }
  cache.set(key, found);
  return found;
}

export interface GrepRun {
  hits: FileHit[];
  /** Hits in files the `hold` option set aside. */
  held: FileHit[];
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
        return { hits: collector.sorted(), held: collector.held, capped: collector.capped, engine: 'rg' };
      } catch (err) {
        if (err instanceof RgBlockedError) fallback = err.message;
        else if (err instanceof RgRegexError) fallback = `rg rejected the pattern (${err.message.split('\n').pop()})`;
        else throw err;
      }
    }
  }
  const collector = new Collector(q.mode, q.maxResults, opts);
  await runJs(q, p, collector, opts.pool);
  return { hits: collector.sorted(), held: collector.held, capped: collector.capped, engine: 'js', ...(fallback ? { fallback } : {}) };
}
