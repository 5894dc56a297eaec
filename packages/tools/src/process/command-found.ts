// Whether a command would start, checked before a wrapper (bash with `ulimit`, a sandbox) runs it:
// through a wrapper a missing program is only an exit code and a line on stderr.
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, isAbsolute, join, resolve } from 'node:path';

function executable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

/** True when `command` names an executable file: a path (from `cwd`), or a name found on `pathVar`, as spawn would. */
export function commandFound(command: string, pathVar = process.env.PATH ?? '', cwd = process.cwd()): boolean {
  if (command.includes('/')) return executable(isAbsolute(command) ? command : resolve(cwd, command));
  return pathVar
    .split(delimiter)
    .filter(Boolean)
    .some((dir) => executable(join(isAbsolute(dir) ? dir : resolve(cwd, dir), command)));
}

/** The error spawn gives for a program that is not there, so callers that explain ENOENT explain this too. */
export function commandNotFoundError(command: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`spawn ${command} ENOENT`), {
    code: 'ENOENT',
    errno: -2,
    syscall: `spawn ${command}`,
    path: command,
  });
}
