// A stdio MCP server started through npx (or `npm exec`) downloads its package on first start. In
// the sandbox it has no network and a read-only ~/.npm, so it would hang until the connect timeout.
// The package is fetched first, in a sandbox of its own with the network and a cache toolbelt owns,
// running no package code (--ignore-scripts, and /bin/true as the command); the server then starts
// offline from that cache, without the network unless its config gives it.
import { execFile } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, isAbsolute, join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

type Env = Record<string, string | undefined>;

/** What a package runner's command line names: the package to fetch. */
export interface PackageRun {
  spec: string;
}

/** npx's options that take a value (everything else before the package is a flag). */
const NPX_VALUED = new Set([
  '-p',
  '--package',
  '-c',
  '--call',
  '--registry',
  '--cache',
  '--userconfig',
  '-w',
  '--workspace',
]);

/** The package an `npx …` or `npm exec …` command line runs, or undefined for any other command. */
export function packageRun(command: string, args: readonly string[]): PackageRun | undefined {
  const name = basename(command);
  let rest = [...args];
  if (name === 'npm') {
    if (rest[0] !== 'exec' && rest[0] !== 'x') return undefined;
    rest = rest.slice(1);
  } else if (name !== 'npx') return undefined;
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i];
    if (a === '--') return rest[i + 1] ? { spec: rest[i + 1] } : undefined;
    const eq = /^--package=(.+)$/.exec(a);
    if (eq) return { spec: eq[1] };
    if (a === '-p' || a === '--package') return rest[i + 1] ? { spec: rest[i + 1] } : undefined;
    if (NPX_VALUED.has(a)) i++;
    else if (!a.startsWith('-')) return { spec: a };
  }
  return undefined;
}

/** $XDG_CACHE_HOME/toolbelt/npm, else ~/.cache/toolbelt/npm: the npm cache of servers started through npx. */
function packageCacheDir(env: Env = process.env): string {
  const xdg = env.XDG_CACHE_HOME;
  return join(xdg && isAbsolute(xdg) ? xdg : join(homedir(), '.cache'), 'toolbelt', 'npm');
}

/** The environment npm gets in the sandbox: toolbelt's cache, and nothing that writes elsewhere or phones home. */
export function packageRunnerEnv(cache: string): Record<string, string> {
  return {
    npm_config_cache: cache,
    npm_config_update_notifier: 'false',
    npm_config_fund: 'false',
    npm_config_audit: 'false',
    npm_config_yes: 'true',
  };
}

/** Runs a fetch command line (already confined); a failure says what npm said. */
export type Fetcher = (file: string, args: string[], env: Record<string, string>) => Promise<void>;

export const execFetcher: Fetcher = async (file, args, env) => {
  try {
    await run(file, args, {
      env: { ...env, PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: homedir() },
      timeout: 170_000,
      maxBuffer: 4 << 20,
    });
  } catch (err) {
    const e = err as { stderr?: string; message: string; killed?: boolean };
    const said = (e.stderr ?? '').trim().split('\n').slice(-3).join(' / ');
    throw new Error(
      `could not fetch the server's package with npm${e.killed ? ' (timed out)' : ''}: ${said || e.message}`,
      { cause: err },
    );
  }
};

/**
 * The npm command line that downloads `spec` and its dependencies into the cache, running none of
 * their code: no install scripts, and /bin/true by its path (a bare `true` would find a package's bin of that name first).
 */
export function fetchArgs(spec: string): string[] {
  return ['exec', '--yes', '--ignore-scripts', `--package=${spec}`, '--', '/bin/true'];
}

/** Makes the cache directory; fetched specs are remembered per process, so restarts start at once. */
export class PackageCache {
  private readonly fetched = new Set<string>();
  readonly dir: string;

  constructor(dir = packageCacheDir()) {
    this.dir = dir;
  }

  ready(): string {
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    return this.dir;
  }

  async fetch(spec: string, go: () => Promise<void>): Promise<void> {
    if (this.fetched.has(spec)) return;
    await go();
    this.fetched.add(spec);
  }
}
