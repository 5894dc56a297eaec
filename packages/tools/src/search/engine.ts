// Which grep engine runs: ripgrep when a binary is configured or on PATH, the JS engine otherwise
// (and for patterns only JavaScript understands). Both return the same results.
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';

export type EngineChoice = 'auto' | 'rg' | 'js';

export interface SearchSettings {
  /** Path to the rg binary; default: `rg` on PATH. */
  rgPath?: string;
  /** auto (rg when present), rg (fail without it) or js. Default auto. */
  engine?: EngineChoice;
}

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

/** Reads the `search` section of toolbelt.config.json. */
export function searchSettings(config: Record<string, unknown> | undefined): SearchSettings {
  const s = (config?.search ?? {}) as SearchSettings;
  return { ...(s.rgPath ? { rgPath: s.rgPath } : {}), ...(s.engine ? { engine: s.engine } : {}) };
}
