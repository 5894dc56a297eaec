// The one place every path goes through: inside the roots after resolving symlinks (also for
// paths that do not exist yet, through their nearest existing parent), no NUL bytes, no prefix
// traps, no secrets unless a rule allows them, never toolbelt's own files (config, state, gateway
// database, token files), and never a workspace root itself as a write target.
import { realpathSync, statSync } from 'node:fs';
import { lstat, readlink } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { ToolError, type Workspace } from '@toolbelt/core';
import { fsError, isMissing } from '../errno.js';
import { ownFileReason, sensitiveMatch, sensitiveReason } from './sensitive.js';

export type Access = 'read' | 'write' | 'list' | 'delete';

export interface WorkspaceOptions {
  /** Directories the agent may touch; the first is the default cwd. */
  roots: string[];
  /** Where relative paths start; must be inside a root. */
  cwd?: string;
  /**
   * Lets a sensitive path through, e.g. when a policy rule allows it explicitly. `tool` is the
   * calling tool (unset outside a call); `name` is what marks the path as a secret (`.env`, `.ssh`,
   * `.pem`), which the rule must spell out.
   */
  allowSensitive?: (absPath: string, access: Access, secret: { tool?: string; name: string }) => boolean;
  /**
   * toolbelt's own files that its name rules (toolbelt.config.json, .toolbelt/) do not catch: the
   * file given by --config, the gateway database, token files, the state directory. Refused for
   * every access but listing, whatever allowSensitive says; a directory covers everything below
   * it, and deleting or moving a directory that holds one is refused too.
   */
  protectedPaths?: readonly string[];
}

const MAX_LINKS = 40;
const MAX_PATH = 4096;

function realRoot(root: string): string {
  const abs = resolve(root);
  let real: string;
  try {
    real = realpathSync(abs);
  } catch {
    throw new Error(`workspace root ${abs} does not exist`);
  }
  if (!statSync(real).isDirectory()) throw new Error(`workspace root ${abs} is not a directory`);
  return real;
}

export class WorkspaceGuard implements Workspace {
  readonly roots: readonly string[];
  readonly cwd: string;
  private readonly allowSensitive?: WorkspaceOptions['allowSensitive'];
  /** Real absolute paths; a handful at most, so a loop over them costs nothing per call. */
  readonly protectedPaths: readonly string[];
  /** The tool this view resolves for (see forTool); secrets are opened per tool. */
  private readonly tool?: string;
  /** One view per tool name, shared by all views of this guard: a call costs no allocation. */
  private readonly views: Map<string, WorkspaceGuard> = new Map();

  constructor(opts: WorkspaceOptions) {
    if (!opts.roots.length) throw new Error('a workspace needs at least one root directory');
    // Roots are compared by their real paths, so a root reached through a symlink still works.
    this.roots = [...new Set(opts.roots.map(realRoot))];
    const cwd = opts.cwd ? realRoot(resolve(this.roots[0], opts.cwd)) : this.roots[0];
    if (!this.inside(cwd)) throw new Error(`cwd ${cwd} is outside the workspace roots ${this.roots.join(', ')}`);
    this.cwd = cwd;
    this.allowSensitive = opts.allowSensitive;
    this.protectedPaths = [...new Set((opts.protectedPaths ?? []).map((p) => realpathLooseSync(resolve(p))))];
  }

  /** A guard for the same roots with another cwd (which must be inside them). */
  withCwd(cwd: string): WorkspaceGuard {
    const guard = new WorkspaceGuard({
      roots: [...this.roots],
      cwd: resolve(this.cwd, cwd),
      protectedPaths: this.protectedPaths,
      ...(this.allowSensitive ? { allowSensitive: this.allowSensitive } : {}),
    });
    return this.tool === undefined ? guard : guard.forTool(this.tool);
  }

  /**
   * The same guard resolving on behalf of one tool: an allow rule opens a secret only for the tool
   * it names, so a write_file rule never lets read_file see `.env`. The executor asks for this view
   * once per call.
   */
  forTool(tool: string): WorkspaceGuard {
    if (!this.allowSensitive || this.tool === tool) return this;
    const known = this.views.get(tool);
    if (known) return known;
    // A copy of this guard's fields with another tool: no second realpath of the roots.
    const view: WorkspaceGuard = Object.assign(Object.create(WorkspaceGuard.prototype) as WorkspaceGuard, this, {
      tool,
    });
    this.views.set(tool, view);
    return view;
  }

  /**
   * The real absolute path for an access, or a ToolError: INVALID_PARAMS for a malformed path,
   * PERMISSION_DENIED for one outside the roots or protected. For `delete` a symlink itself is the
   * target (its parent is resolved, not the link).
   */
  async resolve(path: string, access: Access): Promise<string> {
    if (typeof path !== 'string' || path.trim().length === 0)
      throw new ToolError('INVALID_PARAMS', 'path must be a non-empty string, absolute or relative to the workspace');
    if (path.includes('\0'))
      throw new ToolError(
        'INVALID_PARAMS',
        `path contains a NUL byte: ${JSON.stringify(path)}. Pass the path without it.`,
      );
    if (path.length > MAX_PATH)
      throw new ToolError('INVALID_PARAMS', `path is ${path.length} characters long; the limit is ${MAX_PATH}.`);
    const absolute = resolve(this.cwd, path);
    const real = await this.real(absolute, access, path);
    if (!this.inside(real)) {
      const via = real !== absolute ? ` (it resolves to ${real})` : '';
      throw new ToolError(
        'PERMISSION_DENIED',
        `${path} is outside the workspace${via}. Use a path inside ${this.roots.join(' or ')}.`,
      );
    }
    if ((access === 'write' || access === 'delete') && this.roots.includes(real)) {
      throw new ToolError(
        'PERMISSION_DENIED',
        `${path} is a workspace root; it cannot be ${access === 'write' ? 'overwritten' : 'deleted'} or moved. Name a path inside it.`,
      );
    }
    const rel = this.relativeToRoot(real);
    const own = ownFileReason(rel, access) ?? this.protectedReason(real, access);
    if (own)
      throw new ToolError('PERMISSION_DENIED', `${this.display(real)} is protected: ${own}. No rule changes this.`);
    const secret = sensitiveMatch(rel, access);
    if (
      secret &&
      !this.allowSensitive?.(real, access, {
        ...(this.tool !== undefined ? { tool: this.tool } : {}),
        name: secret.name,
      })
    ) {
      const rule = this.tool
        ? `{"tool":"${this.tool}","path":"${this.display(real)}","action":"allow"}`
        : 'an allow rule that names this tool and this file';
      throw new ToolError(
        'PERMISSION_DENIED',
        `${this.display(real)} is protected: ${secret.reason}. Only if it is really needed, ask the user to add the rule ${rule}.`,
      );
    }
    if (/[/\\]$/.test(path) && path.length > 1) await this.expectDirectory(real, path);
    return real;
  }

  /**
   * Whether a real path is withheld for an access (secrets, toolbelt's own files), without touching
   * the disk: searches use it to set hits aside before resolve() has the last word.
   */
  isProtected(real: string, access: Access): boolean {
    const rel = this.relativeToRoot(real);
    return sensitiveReason(rel, access) !== undefined || this.protectedReason(real, access) !== undefined;
  }

  /** Why a real path is one of protectedPaths, below one, or (for delete) holds one. */
  private protectedReason(real: string, access: Access): string | undefined {
    if (access === 'list') return undefined;
    for (const p of this.protectedPaths) {
      if (real === p || real.startsWith(p + sep))
        return "it is one of toolbelt's own files (config, state, gateway database or a token); only the user reads or changes it";
      if (access === 'delete' && p.startsWith(real === sep ? real : real + sep))
        return `it holds ${this.display(p)}, one of toolbelt's own files, which must stay where it is`;
    }
    return undefined;
  }

  /** A path as a model should see it: relative to its root when inside one. */
  display(absPath: string): string {
    for (const root of this.roots) {
      if (absPath === root) return '.';
      const prefix = root.endsWith(sep) ? root : root + sep;
      if (absPath.startsWith(prefix)) return absPath.slice(prefix.length);
    }
    return absPath;
  }

  /** True when a real path is one of the roots or below one (`/srv/app2` is not below `/srv/app`). */
  inside(real: string): boolean {
    return this.roots.some((root) => {
      const rel = relative(root, real);
      return rel === '' || (rel !== '..' && !rel.startsWith('..' + sep) && !isAbsolute(rel));
    });
  }

  /** The path below its root ('' for the root), for sensitivity checks that ignore where the root sits. */
  private relativeToRoot(real: string): string {
    // The common case without path.relative (which resolves both paths again): a real path below
    // the only root. Searches ask this for every hit.
    if (this.roots.length === 1) {
      const root = this.roots[0];
      if (real === root) return '';
      const prefix = root.endsWith(sep) ? root : root + sep;
      const rel = real.startsWith(prefix) ? real.slice(prefix.length) : undefined;
      // A segment starting with a dot may be `.` or `..`, and `//` is not normalized: path.relative decides.
      const plain = rel !== undefined && !rel.startsWith('.') && !rel.includes(sep + '.') && !rel.includes(sep + sep);
      if (plain) return rel;
    }
    let best: string | undefined;
    for (const root of this.roots) {
      const rel = relative(root, real);
      if (rel === '' || (rel !== '..' && !rel.startsWith('..' + sep) && !isAbsolute(rel))) {
        if (best === undefined || rel.length < best.length) best = rel;
      }
    }
    return best ?? real;
  }

  private async real(absolute: string, access: Access, original: string): Promise<string> {
    try {
      if (access === 'delete') {
        const parent = dirname(absolute);
        return parent === absolute ? absolute : join(await realpathLoose(parent, 0), basename(absolute));
      }
      return await realpathLoose(absolute, 0);
    } catch (err) {
      throw fsError(err, original, 'resolve');
    }
  }

  private async expectDirectory(real: string, original: string): Promise<void> {
    try {
      if (!(await lstat(real)).isDirectory())
        throw new ToolError(
          'INVALID_PARAMS',
          `${original} ends with "/" but ${this.display(real)} is not a directory; drop the trailing slash.`,
        );
    } catch (err) {
      if (err instanceof ToolError) throw err;
      // Not there yet: a trailing slash on a path to be created is fine.
    }
  }
}

/** The real path of a file that may not exist yet: its nearest existing parent's, plus the rest. */
function realpathLooseSync(path: string): string {
  try {
    return realpathSync.native(path);
  } catch {
    const parent = dirname(path);
    return parent === path ? path : join(realpathLooseSync(parent), basename(path));
  }
}

/** realpath that also works for paths that do not exist yet, and for dangling links. */
async function realpathLoose(path: string, depth: number): Promise<string> {
  if (depth > MAX_LINKS) throw new ToolError('INVALID_PARAMS', `too many levels of symbolic links at ${path}`);
  try {
    // The native call answers in microseconds on a local disk; a thread-pool hop costs far more
    // than the lookup itself, and every tool call goes through here.
    return realpathSync.native(path);
  } catch (err) {
    if (!isMissing(err)) throw err;
  }
  let stat;
  try {
    stat = await lstat(path);
  } catch {
    stat = undefined;
  }
  if (stat?.isSymbolicLink()) {
    // A dangling link: what it would point at is what a write would create.
    const target = resolve(dirname(path), await readlink(path));
    return realpathLoose(target, depth + 1);
  }
  const parent = dirname(path);
  if (parent === path) return path;
  return join(await realpathLoose(parent, depth), basename(path));
}
