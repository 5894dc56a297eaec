// Confines one command or server: decides the profile from the settings, what bubblewrap can do
// here, and what the caller knows (the roots, toolbelt's own files, whether the command was judged a
// read, whether it may use the network), and hands back how to run it.
import { existsSync, statSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { commandHasPrefix, ToolError } from '@toolbelt/core';
import type { Invocation, ResourceLimits } from '../process/limits.js';
import { bwrapInvocation, type BwrapProfile } from './bwrap.js';
import { probeSandbox, type SandboxStatus } from './probe.js';
import type { SandboxSettings } from './settings.js';

export interface ConfineRequest {
  roots: readonly string[];
  cwd?: string;
  /** toolbelt's own files (the workspace's protectedPaths): hidden like secrets. */
  protectedPaths?: readonly string[];
  /** Judged a read: the whole file system read-only and no network, whatever the config allows. */
  readOnly: boolean;
  network: boolean;
  /**
   * toolbelt's own files in the roots (.toolbelt, toolbelt.config.json): hidden (the default), or
   * shown as they are but read-only. git needs the latter: a tracked toolbelt.config.json it sees
   * as empty is a change it would report in every status and diff.
   */
  ownFiles?: 'hidden' | 'read-only';
}

export type Profile = 'read-only' | 'workspace-write' | 'none';

export interface Confinement {
  profile: Profile;
  network: boolean;
  roots: readonly string[];
  /** The paths shown empty to the command. */
  hidden: readonly string[];
  /** The home directory, to show paths below it as `~/…`. */
  home: string;
  /** Limits the command runs under (also without bubblewrap, unless the mode is off). */
  limits: ResourceLimits | undefined;
  wrap(inv: Invocation): Invocation;
  /** Set once per sandbox when `auto` runs a command without bubblewrap: tell the model and the user. */
  notice?: string;
}

/** toolbelt's own files inside each root, which its name rules protect wherever they are. */
const OWN_IN_ROOT = ['.toolbelt', 'toolbelt.config.json'];

function ownInRoots(roots: readonly string[]): string[] {
  return roots.flatMap((r) => OWN_IN_ROOT.map((n) => join(r, n)));
}

function under(path: string, dir: string): boolean {
  return path === dir || path.startsWith(dir.endsWith(sep) ? dir : dir + sep);
}

export class Sandbox {
  private told = false;

  constructor(
    readonly settings: SandboxSettings,
    private readonly opts: { warn?(line: string): void } = {},
  ) {}

  /** Whether bubblewrap works here (tried once per process). */
  status(): Promise<SandboxStatus> {
    return probeSandbox(this.settings.bwrap);
  }

  /** The limits every confined process gets; none when the sandbox is off. */
  get limits(): ResourceLimits | undefined {
    return this.settings.mode === 'off' ? undefined : this.settings.limits;
  }

  /** A command may use the network when the config allows it for every simple command in it. */
  networkFor(commands: readonly string[] | undefined): boolean {
    const n = this.settings.network;
    if (typeof n === 'boolean') return n;
    return !!commands?.length && commands.every((c) => n.some((prefix) => commandHasPrefix(c, prefix)));
  }

  async confine(req: ConfineRequest, limits: ResourceLimits | undefined = this.limits): Promise<Confinement> {
    const home = this.settings.home;
    const none = (notice?: string): Confinement => ({
      profile: 'none',
      network: true,
      roots: req.roots,
      hidden: [],
      home,
      limits,
      wrap: (inv) => inv,
      ...(notice ? { notice } : {}),
    });
    if (this.settings.mode === 'off') return none();
    const status = await this.status();
    if (!status.ok) {
      if (this.settings.mode === 'required') {
        throw new ToolError(
          'PERMISSION_DENIED',
          `not run: sandbox.mode is "required" and the sandbox does not work here (${status.reason}). Ask the user to fix it (${status.hint}) or to set sandbox.mode to "auto" in toolbelt.config.json; \`toolbelt doctor\` shows why.`,
        );
      }
      if (this.told) return none();
      this.told = true;
      const notice = `commands and MCP servers run without a sandbox here: ${status.reason} (${status.hint}). \`toolbelt doctor\` shows more; set sandbox.mode to "off" to silence this.`;
      this.opts.warn?.(`toolbelt: ${notice}`);
      return none(notice);
    }
    const network = !req.readOnly && req.network;
    const hidden = this.hiddenFor(req);
    const own = req.ownFiles === 'read-only' ? ownInRoots(req.roots).filter((p) => kindOf(p)) : [];
    const profile: BwrapProfile = {
      roots: req.roots,
      readOnly: req.readOnly,
      network,
      readable: INSTALL_UNDER_TMP,
      writable: req.readOnly ? [] : this.settings.writable.filter((w) => isDir(w)),
      hidden,
      ...(own.length ? { readOnlyPaths: own } : {}),
      ...(req.cwd ? { cwd: req.cwd } : {}),
    };
    return {
      profile: req.readOnly ? 'read-only' : 'workspace-write',
      network,
      roots: req.roots,
      hidden: hidden.map((h) => h.path),
      home,
      limits,
      wrap: (inv) => bwrapInvocation(status.bwrap, profile, inv),
    };
  }

  /** Hidden paths that exist now; never one that holds a root (the user put the workspace there). */
  private hiddenFor(req: ConfineRequest): { path: string; dir: boolean }[] {
    const own = req.ownFiles === 'read-only' ? [] : ownInRoots(req.roots);
    const wanted = [...this.settings.hidden, ...(req.protectedPaths ?? []), ...own];
    const out: { path: string; dir: boolean }[] = [];
    for (const path of new Set(wanted)) {
      if (req.roots.some((r) => under(r, path))) continue;
      const kind = kindOf(path);
      if (kind) out.push({ path, dir: kind === 'dir' });
    }
    return out;
  }
}

/**
 * toolbelt's own installation when it lies under /tmp (a checkout in a temp directory, a CI job):
 * the private /tmp would hide the node_modules its MCP servers and tools run from. It is the first
 * directory above this file whose node_modules holds @toolbelt; mounted back read-only.
 */
const INSTALL_UNDER_TMP: readonly string[] = (() => {
  for (let dir = dirname(fileURLToPath(import.meta.url)); dir !== dirname(dir); dir = dirname(dir)) {
    if (existsSync(join(dir, 'node_modules', '@toolbelt'))) return under(dir, '/tmp') && dir !== '/tmp' ? [dir] : [];
  }
  return [];
})();

function kindOf(path: string): 'dir' | 'file' | undefined {
  try {
    return statSync(path).isDirectory() ? 'dir' : 'file';
  } catch {
    return undefined;
  }
}

function isDir(path: string): boolean {
  return kindOf(path) === 'dir';
}
