// The one place every path goes through: inside the roots after resolving symlinks (also for
// paths that do not exist yet), no NUL bytes, no secrets unless a rule allows them.
import { lstat, readlink, realpath } from 'node:fs/promises';
import { realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { ToolError, type Workspace } from '@toolbelt/core';
import { sensitiveReason } from './sensitive.js';

export type Access = 'read' | 'write' | 'list' | 'delete';

export interface WorkspaceOptions {
  /** Directories the agent may touch; the first is the default cwd. */
  roots: string[];
  /** Where relative paths start; must be inside a root. */
  cwd?: string;
  /** Lets a sensitive path through, e.g. when a policy rule allows it explicitly. */
  allowSensitive?: (absPath: string, access: Access) => boolean;
}

const MAX_LINKS = 40;

export class WorkspaceGuard implements Workspace {
  readonly roots: readonly string[];
  readonly cwd: string;
  private readonly allowSensitive?: WorkspaceOptions['allowSensitive'];

  constructor(opts: WorkspaceOptions) {
    if (!opts.roots.length) throw new Error('a workspace needs at least one root directory');
    // Roots are compared by their real paths, so a root reached through a symlink still works.
    this.roots = opts.roots.map((r) => realpathSync(resolve(r)));
    const cwd = opts.cwd ? realpathSync(resolve(this.roots[0], opts.cwd)) : this.roots[0];
    if (!this.inside(cwd)) throw new Error(`cwd ${cwd} is outside the workspace roots ${this.roots.join(', ')}`);
    this.cwd = cwd;
    this.allowSensitive = opts.allowSensitive;
  }

  /** A guard for the same roots with another cwd (which must be inside them). */
  withCwd(cwd: string): WorkspaceGuard {
    return new WorkspaceGuard({ roots: [...this.roots], cwd: resolve(this.cwd, cwd), allowSensitive: this.allowSensitive });
  }

  async resolve(path: string, access: Access): Promise<string> {
    if (typeof path !== 'string' || path.length === 0) throw new ToolError('INVALID_PARAMS', 'path must be a non-empty string');
    if (path.includes('\0')) throw new ToolError('INVALID_PARAMS', `path contains a NUL byte: ${JSON.stringify(path)}`);
    const absolute = resolve(this.cwd, path);
    // For deletes the link itself is the target, not what it points to.
    const real = access === 'delete' ? await this.realParent(absolute) : await realpathLoose(absolute, 0);
    if (!this.inside(real)) {
      const via = real !== absolute ? ` (it resolves to ${real})` : '';
      throw new ToolError('PERMISSION_DENIED', `${path} is outside the workspace${via}. Use a path inside ${this.roots.join(' or ')}.`);
    }
    const why = sensitiveReason(real, access);
    if (why && !this.allowSensitive?.(real, access)) {
      throw new ToolError('PERMISSION_DENIED', `${this.display(real)} is protected: ${why}. Ask the user to add an allow rule for this path if it is really needed.`);
    }
    return real;
  }

  display(absPath: string): string {
    for (const root of this.roots) {
      if (absPath === root) return '.';
      if (absPath.startsWith(root + sep)) return absPath.slice(root.length + 1);
    }
    return absPath;
  }

  inside(real: string): boolean {
    return this.roots.some((root) => {
      const rel = relative(root, real);
      return rel === '' || (!rel.startsWith('..' + sep) && rel !== '..' && !isAbsolute(rel));
    });
  }

  private async realParent(absolute: string): Promise<string> {
    const parent = await realpathLoose(dirname(absolute), 0);
    return join(parent, basename(absolute));
  }
}

/** realpath that also works for paths that do not exist yet, and for dangling links. */
async function realpathLoose(path: string, depth: number): Promise<string> {
  if (depth > MAX_LINKS) throw new ToolError('INVALID_PARAMS', `too many levels of symbolic links at ${path}`);
  try {
    return await realpath(path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'ENOTDIR') throw err;
  }
  let stat;
  try {
    stat = await lstat(path);
  } catch {
    stat = undefined;
  }
  if (stat?.isSymbolicLink()) {
    const target = resolve(dirname(path), await readlink(path));
    return realpathLoose(target, depth + 1);
  }
  const parent = dirname(path);
  if (parent === path) return path;
  return join(await realpathLoose(parent, depth), basename(path));
}
