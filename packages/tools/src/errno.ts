// The one mapping from the operating system's errors (errno codes from the file system and from
// starting programs) to ToolErrors whose messages say what to do next. Every tool folder uses it,
// so the same failure reads the same whichever tool met it.
import { ToolError } from '@toolbelt/core';
import { FileTooLargeError } from './text/read.js';
import { formatBytes } from './text/amounts.js';

/**
 * What was being done when the error came: `use` is opening, reading or changing a path;
 * `resolve` is following its symbolic links (the workspace guard), where ELOOP means a loop of
 * links rather than a link met by an O_NOFOLLOW open.
 */
export type FsStep = 'use' | 'resolve';

/** True for the codes that mean nothing is at the path (or a parent on the way is a file). */
export function isMissing(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

/** Turns a Node file-system error into a ToolError about `shown` (the path as the model wrote it). */
export function fsError(err: unknown, shown: string, step: FsStep = 'use'): ToolError {
  if (err instanceof ToolError) return err;
  if (err instanceof FileTooLargeError)
    return new ToolError(
      'INVALID_PARAMS',
      `${shown} is ${formatBytes(err.size)}, over the ${formatBytes(err.limit)} limit for this operation.`,
    );
  const code = (err as NodeJS.ErrnoException)?.code;
  switch (code) {
    case 'ENOENT':
      return new ToolError('NOT_FOUND', `${shown} does not exist. Check the path with list_directory or glob.`);
    case 'ENOTDIR':
      return new ToolError(
        'NOT_FOUND',
        `a parent of ${shown} is a file, not a directory. Check the path with list_directory.`,
      );
    case 'EISDIR':
      return new ToolError('INVALID_PARAMS', `${shown} is a directory; use list_directory to see what it holds.`);
    case 'EEXIST':
      return new ToolError('CONFLICT', `${shown} already exists.`);
    case 'ENOTEMPTY':
      return new ToolError(
        'CONFLICT',
        `${shown} is a directory that is not empty; pass recursive: true to delete it with everything in it.`,
      );
    case 'EACCES':
    case 'EPERM':
      return new ToolError('PERMISSION_DENIED', `the operating system refused access to ${shown} (${code}).`);
    case 'ELOOP':
      return step === 'resolve'
        ? new ToolError('INVALID_PARAMS', `${shown} loops through symbolic links; fix the links or use another path.`)
        : new ToolError(
            'CONFLICT',
            `${shown} was replaced by a symbolic link during the call; it was not followed. Check the path and retry.`,
          );
    case 'ENOSPC':
      return new ToolError('EXECUTION_FAILED', `no space left on the device while writing ${shown}.`);
    case 'EROFS':
      return new ToolError('PERMISSION_DENIED', `${shown} is on a read-only file system.`);
    case 'ENAMETOOLONG':
      return new ToolError('INVALID_PARAMS', `${shown} has a name that is too long.`);
    case 'EXDEV':
      return new ToolError('EXECUTION_FAILED', `${shown} cannot be moved across file systems.`);
    default: {
      const detail = (err as Error)?.message ?? String(err);
      return step === 'resolve'
        ? new ToolError('INVALID_PARAMS', `${shown} could not be resolved: ${detail}`)
        : new ToolError('EXECUTION_FAILED', `${shown}: ${detail}`);
    }
  }
}

/** For `stat(p).catch(absentOr(shown))`: undefined when nothing is there, any other error mapped. */
export function absentOr(shown: string): (err: unknown) => undefined {
  return (err) => {
    if (isMissing(err)) return undefined;
    throw fsError(err, shown);
  };
}

/**
 * A program that failed to start. `name` says what it is (`git`, `language server "ts"
 * (typescript-language-server)`); `fix` says where it is set or how to get it.
 */
export function spawnError(err: unknown, name: string, fix: string): ToolError {
  const code = (err as NodeJS.ErrnoException)?.code;
  const why =
    code === 'ENOENT'
      ? 'not found on PATH'
      : code === 'EACCES'
        ? 'not executable (EACCES)'
        : ((err as Error)?.message ?? String(err));
  return new ToolError('EXECUTION_FAILED', `could not start ${name}: ${why}. ${fix}`);
}
