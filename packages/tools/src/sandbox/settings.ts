// The `sandbox` section of toolbelt.config.json, with defaults: how commands and stdio MCP servers
// are confined (mode), what they may reach (network, writable), what they must not see (hidden),
// and the resource limits they run under.
import { isAbsolute, join, resolve } from 'node:path';
import type { ResourceLimits } from '../process/limits.js';

export type SandboxMode = 'auto' | 'required' | 'off';
export const SANDBOX_MODES: readonly SandboxMode[] = ['auto', 'required', 'off'];

export interface SandboxSettings {
  /** auto: bubblewrap when it works, else without (said once); required: refuse without it; off: never. */
  mode: SandboxMode;
  /** true: every command and server may use the network; a list: command prefixes that may. */
  network: boolean | readonly string[];
  /** Absolute directories writable besides the workspace roots (`~` expanded). */
  writable: readonly string[];
  /** Absolute paths shown as empty: the defaults plus the config's, less those it unhides with `!`. */
  hidden: readonly string[];
  /** Applied to every sandboxed command and server (and in `auto` without bubblewrap too). */
  limits: ResourceLimits;
  /** The bubblewrap binary: a name looked up on PATH, or a path. */
  bwrap: string;
  /** What `~` stood for: paths are shown to the model with it. */
  home: string;
}

/**
 * The design spec's limits (CPU 3600 s, 1 GB of address space, 100 open files), where they let
 * ordinary programs run (measured, docs/policy.md#sandbox):
 * - memory: under RLIMIT_AS of 1 GB Node starts (it reserves ~0.7 GB) but can allocate only ~250 MB
 *   and cannot instantiate WebAssembly. 1 GB of RLIMIT_DATA bounds what a process really allocates
 *   and lets both work; `memoryMb` still sets RLIMIT_AS for whoever wants it.
 * - open files: Node's ES module loader opens a package's modules at once; an MCP server on the
 *   official SDK fails to start with EMFILE at 100 and starts at 150. 1024 is Linux's usual default.
 */
export const SANDBOX_LIMITS_DEFAULT: ResourceLimits = { cpuSeconds: 3600, dataMb: 1024, openFiles: 1024, processes: 4096 };

/** Secrets in the home directory, and sockets that hand out more power than a read-only mount holds back. */
export const HIDDEN_DEFAULT: readonly string[] = [
  '~/.ssh', '~/.aws', '~/.gnupg', '~/.azure', '~/.kube', '~/.docker', '~/.password-store',
  '~/.config/gh', '~/.config/gcloud', '~/.config/hub', '~/.netrc', '~/.git-credentials', '~/.npmrc',
  '~/.pypirc', '~/.pgpass', '~/.vault-token',
  '/run/user', '/run/docker.sock', '/var/run/docker.sock',
];

const LIMIT_KEYS = ['cpuSeconds', 'memoryMb', 'dataMb', 'openFiles', 'processes'] as const;

function fail(key: string, what: string, value: unknown): never {
  throw new Error(`sandbox.${key} in the config must be ${what}, not ${JSON.stringify(value)}`);
}

/** `~/x` against home; other paths must be absolute (there is no one directory a relative path would start from). */
function expand(path: string, home: string, key: string): string {
  if (path === '~') return home;
  if (path.startsWith('~/')) return join(home, path.slice(2));
  if (!isAbsolute(path)) fail(key, 'a list of absolute paths or paths starting with "~/"', path);
  return resolve(path);
}

function strings(value: unknown, key: string): string[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string' || v.length === 0)) fail(key, 'a list of non-empty strings', value);
  return value as string[];
}

function limitsOf(value: unknown): ResourceLimits {
  if (value === undefined) return { ...SANDBOX_LIMITS_DEFAULT };
  if (typeof value !== 'object' || value === null || Array.isArray(value)) fail('limits', 'an object', value);
  const out: ResourceLimits = { ...SANDBOX_LIMITS_DEFAULT };
  for (const [k, v] of Object.entries(value)) {
    if (!(LIMIT_KEYS as readonly string[]).includes(k)) fail('limits', `an object with ${LIMIT_KEYS.join(', ')}`, value);
    if (typeof v !== 'number' || !Number.isInteger(v) || v <= 0) fail(`limits.${k}`, 'a positive integer', v);
    out[k as (typeof LIMIT_KEYS)[number]] = v;
  }
  return out;
}

/** Reads `config.sandbox`; `overrides` (embedding, tests) win over the config. */
export function sandboxSettings(
  config: Record<string, unknown> | undefined,
  opts: { env?: Record<string, string | undefined>; overrides?: Partial<SandboxSettings> } = {},
): SandboxSettings {
  const raw = (config?.sandbox ?? {}) as Record<string, unknown>;
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new Error('sandbox in the config must be an object');
  const home = opts.env?.HOME || process.env.HOME || '/';
  const mode = raw.mode ?? 'auto';
  if (!SANDBOX_MODES.includes(mode as SandboxMode)) fail('mode', `one of ${SANDBOX_MODES.map((m) => `"${m}"`).join(', ')}`, mode);
  const network = raw.network ?? false;
  if (typeof network !== 'boolean') strings(network, 'network');
  const given = strings(raw.hidden, 'hidden') ?? [];
  const unhide = new Set(given.filter((h) => h.startsWith('!')).map((h) => expand(h.slice(1), home, 'hidden')));
  const hidden = [...HIDDEN_DEFAULT, ...given.filter((h) => !h.startsWith('!'))].map((h) => expand(h, home, 'hidden')).filter((h) => !unhide.has(h));
  const bwrap = raw.bwrapPath ?? 'bwrap';
  if (typeof bwrap !== 'string' || !bwrap) fail('bwrapPath', 'a path or a program name', bwrap);
  return {
    mode: mode as SandboxMode,
    network: network as boolean | string[],
    writable: (strings(raw.writable, 'writable') ?? []).map((w) => expand(w, home, 'writable')),
    hidden: [...new Set(hidden)],
    limits: limitsOf(raw.limits),
    bwrap,
    home,
    ...opts.overrides,
  };
}
