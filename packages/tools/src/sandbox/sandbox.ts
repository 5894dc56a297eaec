// Confines one command or server: decides the profile from the settings, what bubblewrap can do
// here, and what the caller knows (the roots, toolbelt's own files, whether the command was judged a
// read, whether it may use the network), and hands back how to run it.
import { basename, dirname, join } from 'node:path';
import { commandHasPrefix, ToolError } from '@toolbelt/core';
import type { Invocation, ResourceLimits } from '../process/limits.js';
import { ownFileReason } from '../workspace/sensitive.js';
import { bwrapInvocation, type BwrapProfile, type HiddenPath } from './bwrap.js';
import { gitProtection } from './pinned.js';
import { probeSandbox, type SandboxStatus } from './probe.js';
import { SecretScanner, type ScanBudget, type ScanResult } from './secrets.js';
import type { SandboxSettings } from './settings.js';
import {
  emptyFile,
  HOMES_DEFAULT,
  INSTALL_DIR,
  kindOf,
  neededPlaces,
  otherHomes,
  privateDirs,
  readableBack,
  realOrSelf,
  rootOnlyPaths,
  under,
} from './system.js';

export interface ConfineRequest {
  roots: readonly string[];
  cwd?: string;
  /** toolbelt's own files (the workspace's protectedPaths): hidden like secrets. */
  protectedPaths?: readonly string[];
  /** Judged a read: the whole file system read-only and no network, whatever the config allows. */
  readOnly: boolean;
  network: boolean;
  /**
   * toolbelt's own files and the secrets found in the roots: hidden (the default), or shown as they
   * are but read-only. git needs the latter: a tracked file it sees as empty is a change it would
   * report in every status, and whose diff would print the committed content.
   */
  ownFiles?: 'hidden' | 'read-only';
  /**
   * `.git/config` (and `config.worktree`) stay read-only in write profiles, so a command cannot add
   * a filter or hook path to them. toolbelt's git tools write them by design (`push -u` records the
   * upstream) with fixed arguments and the repository's programs neutralised: they ask 'writable'.
   */
  gitConfig?: 'read-only' | 'writable';
  /** Directories writable besides the roots and sandbox.writable (a package runner's cache). */
  writable?: readonly string[];
}

type Profile = 'read-only' | 'workspace-write' | 'none';

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
  /** Said with every result of this command: the search for secrets in the roots stopped early. */
  warnings?: readonly string[];
  /** The bubblewrap binary and profile `wrap` uses (tests build variants of it). */
  bwrap?: { path: string; profile: BwrapProfile };
}

export interface SandboxOptions {
  warn?(line: string): void;
  /** Directories whose entries are users' homes (default /home); tests use one of their own. */
  homes?: readonly string[];
  /** How much of the roots one command may walk to find secrets (default 200,000 entries or 3 s). */
  scanBudget?: ScanBudget;
}

/** toolbelt's own files inside each root, which its name rules protect wherever they are. */
const OWN_IN_ROOT = ['.toolbelt', 'toolbelt.config.json'];

function ownInRoots(roots: readonly string[]): string[] {
  return roots.flatMap((r) => OWN_IN_ROOT.map((n) => join(r, n)));
}

export class Sandbox {
  private told = false;
  private readonly scanner: SecretScanner;

  constructor(
    readonly settings: SandboxSettings,
    private readonly opts: SandboxOptions = {},
  ) {
    this.scanner = new SecretScanner(opts.scanBudget);
  }

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

  /**
   * Whether a command judged a read runs confined here: bubblewrap works, the mode is not off, the
   * search for the roots' secrets finished (so every one is shown empty), and no path in the roots
   * is shown again by sandbox.hidden's `!` entries. The classifier then need not walk a recursive
   * read for secrets.
   */
  async confinesReads(roots: readonly string[]): Promise<boolean> {
    if (this.settings.mode === 'off' || !(await this.status()).ok) return false;
    const real = roots.map(realOrSelf);
    const unhidden = this.settings.unhidden.map(realOrSelf);
    if (unhidden.some((u) => real.some((r) => under(u, r) || under(r, u)))) return false;
    return (await this.scanner.scan(real)).complete;
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
    const profile = await this.profileFor(req, status.hardening);
    const scan = profile.scan;
    return {
      profile: req.readOnly ? 'read-only' : 'workspace-write',
      network: profile.bwrap.network,
      roots: req.roots,
      hidden: profile.bwrap.hidden.map((h) => h.path),
      home,
      limits,
      wrap: (inv) => bwrapInvocation(status.bwrap, profile.bwrap, inv),
      ...(scan.complete ? {} : { warnings: [scanWarning(scan, req.roots)] }),
      bwrap: { path: status.bwrap, profile: profile.bwrap },
    };
  }

  private async profileFor(
    req: ConfineRequest,
    hardening: readonly string[],
  ): Promise<{ bwrap: BwrapProfile; scan: ScanResult }> {
    const roots = req.roots.map(realOrSelf);
    const network = !req.readOnly && req.network;
    const priv = privateDirs();
    const readable = readableBack(['/tmp', ...priv], this.settings.sockets, network);
    const scan = await this.scanner.scan(roots);
    const writable = req.readOnly
      ? []
      : [...this.settings.writable, ...(req.writable ?? [])].filter((w) => kindOf(realOrSelf(w))?.dir);
    const git = req.readOnly ? { pinned: [], readOnly: [] } : gitProtection(roots);
    if (req.gitConfig === 'writable') git.readOnly = git.readOnly.filter((p) => !/[\\/]config(\.worktree)?$/.test(p));
    // git (fixed arguments, its repository's programs neutralised) sees the files in the roots as
    // they are, read-only: a tracked .env shown empty would be a change whose diff prints the
    // committed secret, and a tracked toolbelt.config.json would always look modified.
    const asIs = req.ownFiles === 'read-only';
    const ownShown = asIs ? [...ownInRoots(roots).filter((p) => kindOf(p)), ...scan.hidden.map((h) => h.path)] : [];
    const secrets = asIs ? [] : scan.hidden;
    const hidden = this.hiddenFor(req, roots, secrets, { priv, readable, writable });
    const bwrap: BwrapProfile = {
      roots: req.roots,
      readOnly: req.readOnly,
      network,
      hardening,
      privateDirs: priv,
      readable,
      writable,
      pinned: git.pinned,
      hidden,
      emptyFile: emptyFile(),
      readOnlyPaths: [...new Set([...git.readOnly, ...ownShown])].filter((p) => !hidden.some((h) => under(p, h.path))),
      ...(req.cwd ? { cwd: req.cwd } : {}),
    };
    return { bwrap, scan };
  }

  /**
   * Hidden paths that exist now (real paths), never one that holds a root (the user put the
   * workspace there), nor one under a hidden directory or a private one (already empty inside).
   */
  private hiddenFor(
    req: ConfineRequest,
    roots: readonly string[],
    secrets: readonly HiddenPath[],
    around: { priv: readonly string[]; readable: readonly string[]; writable: readonly string[] },
  ): HiddenPath[] {
    const own = [...(req.protectedPaths ?? []), ...(req.ownFiles === 'read-only' ? [] : ownInRoots(roots))].map(
      realOrSelf,
    );
    const keep = [
      ...roots,
      ...neededPlaces(),
      ...(INSTALL_DIR ? [INSTALL_DIR] : []),
      ...around.writable,
      ...this.settings.sockets,
      this.settings.home,
    ];
    const homes = req.readOnly ? otherHomes(this.opts.homes ?? HOMES_DEFAULT, keep) : [];
    const unhidden = this.settings.unhidden.map(realOrSelf);
    const wanted = [
      ...[...this.settings.hidden.map(realOrSelf), ...own].map(kindOf).filter((h): h is HiddenPath => !!h),
      ...secrets,
      ...rootOnlyPaths(),
      ...homes,
    ];
    const visibleAgain = (p: string) =>
      !ownFileReason(basename(p), 'read') && !own.includes(p) && unhidden.some((u) => under(p, u));
    const shown = (p: string) => [...roots, ...around.readable].some((r) => under(p, r));
    const byPath = new Map<string, HiddenPath>();
    for (const h of wanted) {
      if (roots.some((r) => under(r, h.path)) || visibleAgain(h.path)) continue;
      if (around.priv.concat('/tmp').some((d) => under(h.path, d)) && !shown(h.path)) continue;
      byPath.set(h.path, h);
    }
    const dirs = new Set([...byPath.values()].filter((h) => h.dir).map((h) => h.path));
    const inHiddenDir = (p: string) => {
      for (let d = dirname(p); d !== dirname(d); d = dirname(d)) if (dirs.has(d)) return true;
      return false;
    };
    return [...byPath.values()].filter((h) => !inHiddenDir(h.path)).sort((a, b) => (a.path < b.path ? -1 : 1));
  }
}

function scanWarning(scan: ScanResult, roots: readonly string[]): string {
  return `[sandbox: the search for secret files (.env, keys, credentials) in ${roots.join(', ')} stopped after ${scan.seen} entries, the limit for one command: those found are hidden, but deeper ones may be visible to this command. The next command searches further; if the workspace is this large, ask the user to add its secret files to sandbox.hidden.]`;
}
