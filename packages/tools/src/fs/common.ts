// What every file tool shares: the workspace from the context, file-system errors turned into
// messages a model can act on, and sizes in words.
import type { Stats } from 'node:fs';
import { lstat } from 'node:fs/promises';
import { ToolError, type ToolContext, type Workspace } from '@toolbelt/core';
import { FileTooLargeError } from '../text/read.js';
import { assertPlainFile, openChecked } from '../workspace/special.js';

/** Files edit_file and write_file load whole. */
export const MAX_EDIT_BYTES = 64 * 1024 * 1024;

export function workspaceOf(ctx: ToolContext): Workspace {
  if (!ctx.workspace) {
    throw new ToolError('EXECUTION_FAILED', `${ctx.tool} needs a workspace, and this executor has none. Create the Executor with { workspace: new WorkspaceGuard({ roots: [dir] }) }.`);
  }
  return ctx.workspace;
}

/** Turns a Node file-system error into a ToolError that says what to do next. */
export function fsError(err: unknown, shown: string): ToolError {
  if (err instanceof ToolError) return err;
  if (err instanceof FileTooLargeError) return new ToolError('INVALID_PARAMS', `${shown} is ${formatBytes(err.size)}, over the ${formatBytes(err.limit)} limit for this operation.`);
  const code = (err as NodeJS.ErrnoException)?.code;
  switch (code) {
    case 'ENOENT':
      return new ToolError('NOT_FOUND', `${shown} does not exist. Check the path with list_directory or glob.`);
    case 'ENOTDIR':
      return new ToolError('NOT_FOUND', `a parent of ${shown} is a file, not a directory. Check the path with list_directory.`);
    case 'EISDIR':
      return new ToolError('INVALID_PARAMS', `${shown} is a directory; use list_directory to see what it holds.`);
    case 'EEXIST':
      return new ToolError('CONFLICT', `${shown} already exists.`);
    case 'ENOTEMPTY':
      return new ToolError('CONFLICT', `${shown} is a directory that is not empty; pass recursive: true to delete it with everything in it.`);
    case 'EACCES':
    case 'EPERM':
      return new ToolError('PERMISSION_DENIED', `the operating system refused access to ${shown} (${code}).`);
    case 'ELOOP':
      return new ToolError('CONFLICT', `${shown} was replaced by a symbolic link during the call; it was not followed. Check the path and retry.`);
    case 'ENOSPC':
      return new ToolError('EXECUTION_FAILED', `no space left on the device while writing ${shown}.`);
    case 'EROFS':
      return new ToolError('PERMISSION_DENIED', `${shown} is on a read-only file system.`);
    case 'ENAMETOOLONG':
      return new ToolError('INVALID_PARAMS', `${shown} has a name that is too long.`);
    case 'EXDEV':
      return new ToolError('EXECUTION_FAILED', `${shown} cannot be moved across file systems.`);
    default:
      return new ToolError('EXECUTION_FAILED', `${shown}: ${(err as Error)?.message ?? String(err)}`);
  }
}

/** Runs `fn`, turning file-system errors into ToolErrors about `shown`. */
export async function withFsErrors<T>(shown: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    throw fsError(err, shown);
  }
}

/** lstat, or undefined when nothing is there. */
export async function statOrUndefined(abs: string): Promise<Stats | undefined> {
  try {
    return await lstat(abs);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw err;
  }
}

/** lstat of a file about to be written, or undefined; special and hard-linked files are refused. */
export async function statForWrite(abs: string, shown: string): Promise<Stats | undefined> {
  const stat = await statOrUndefined(abs);
  if (stat) assertPlainFile(stat, shown);
  return stat;
}

/** The whole current content of a file about to be rewritten (never through a symlink, never a pipe). */
export async function readCurrent(abs: string, shown: string): Promise<Buffer> {
  const { fh, stat } = await openChecked(abs, shown);
  try {
    if (stat.isDirectory()) throw Object.assign(new Error(`EISDIR: ${abs} is a directory`), { code: 'EISDIR' });
    if (stat.size > MAX_EDIT_BYTES) throw new FileTooLargeError(stat.size, MAX_EDIT_BYTES);
    return await fh.readFile();
  } finally {
    await fh.close();
  }
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let v = n / 1024;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${v >= 10 ? Math.round(v) : v.toFixed(1)} ${units[i]}`;
}

export function plural(n: number, word: string, many = `${word}s`): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? word : many}`;
}
