// The `sandbox` section of toolbelt.config.json with its defaults: how commands and stdio MCP servers
// are confined (mode), what they may reach (network, writable), what they must not see (hidden),
// and the resource limits they run under.
import { join, resolve } from 'node:path';
import { setKeys } from '@toolbelt/core';
import type { ResourceLimits } from '../process/limits.js';
import type { SandboxMode, SandboxSection } from './section.js';

export interface SandboxSettings {
  /** auto: bubblewrap when it works, else without (said once); required: refuse without it; off: never. */
  mode: SandboxMode;
  /** true: every command and server may use the network; a list: command prefixes that may. */
  network: boolean | readonly string[];
  /** Absolute directories writable besides the workspace roots (`~` expanded). */
  writable: readonly string[];
  /** Absolute paths shown as empty: the defaults plus the config's, less those it unhides with `!`. */
  hidden: readonly string[];
  /** Paths the config unhides with `!`: also secrets found in the roots at or below them. */
  unhidden: readonly string[];
  /** Local sockets (or directories of them) kept visible although /run is hidden. */
  sockets: readonly string[];
  /** Applied to every sandboxed command and server (and in `auto` without bubblewrap too). */
  limits: ResourceLimits;
  /** The bubblewrap binary: a name looked up in the fixed places on PATH, or a path. */
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
export const SANDBOX_LIMITS_DEFAULT: ResourceLimits = {
  cpuSeconds: 3600,
  dataMb: 1024,
  openFiles: 1024,
  processes: 4096,
};

/** Secrets in the home directory. (Local sockets are out of reach anyway: /run is private, see system.ts.) */
export const HIDDEN_DEFAULT: readonly string[] = [
  '~/.ssh',
  '~/.aws',
  '~/.gnupg',
  '~/.azure',
  '~/.kube',
  '~/.docker',
  '~/.password-store',
  '~/.config/gh',
  '~/.config/gcloud',
  '~/.config/hub',
  '~/.netrc',
  '~/.git-credentials',
  '~/.npmrc',
  '~/.pypirc',
  '~/.pgpass',
  '~/.vault-token',
];

/** `~/x` against home; the schema has made sure every other path is absolute. */
function expand(path: string, home: string): string {
  if (path === '~') return home;
  if (path.startsWith('~/')) return join(home, path.slice(2));
  return resolve(path);
}

/** The sandbox section (checked by its schema) with the defaults; `overrides` (embedding, tests) win. */
export function sandboxSettings(
  section: SandboxSection | undefined,
  opts: { env?: Record<string, string | undefined>; overrides?: Partial<SandboxSettings> } = {},
): SandboxSettings {
  const raw = section ?? {};
  const home = opts.env?.HOME || process.env.HOME || '/';
  const given = raw.hidden ?? [];
  const unhide = new Set(given.filter((h) => h.startsWith('!')).map((h) => expand(h.slice(1), home)));
  const hidden = [...HIDDEN_DEFAULT, ...given.filter((h) => !h.startsWith('!'))]
    .map((h) => expand(h, home))
    .filter((h) => !unhide.has(h));
  return {
    mode: raw.mode ?? 'auto',
    network: raw.network ?? false,
    writable: (raw.writable ?? []).map((w) => expand(w, home)),
    hidden: [...new Set(hidden)],
    unhidden: [...unhide],
    sockets: (raw.sockets ?? []).map((w) => expand(w, home)),
    limits: { ...SANDBOX_LIMITS_DEFAULT, ...setKeys(raw.limits) },
    bwrap: raw.bwrapPath ?? 'bwrap',
    home,
    ...opts.overrides,
  };
}
