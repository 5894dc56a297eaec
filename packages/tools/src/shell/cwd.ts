// Where a command runs: the workspace cwd, or a `cwd` parameter that must stay inside the
// workspace. Both go through the workspace, so with none (Workspace.none()) a command is refused
// rather than run in the process's directory.
import { stat } from 'node:fs/promises';
import { ToolError, type ToolContext } from '@toolbelt/core';
import { absentOr } from '../errno.js';

export async function resolveCwd(cwd: string | undefined, ctx: ToolContext): Promise<string> {
  const ws = ctx.workspace;
  // The workspace cwd was checked when the workspace was made; if it has gone since, bash fails to start and says so.
  if (cwd === undefined || cwd === '') return ws.resolve('.', 'list');
  const abs = await ws.resolve(cwd, 'list');
  const info = await stat(abs).catch(absentOr(`cwd ${cwd}`));
  if (!info)
    throw new ToolError(
      'NOT_FOUND',
      `cwd ${cwd} does not exist. Pass an existing directory inside the workspace, or leave cwd out to use ${ws.display(ws.cwd)}.`,
    );
  if (!info.isDirectory())
    throw new ToolError('INVALID_PARAMS', `cwd ${cwd} is a file, not a directory. Pass its directory instead.`);
  return abs;
}

export function displayCwd(abs: string, ctx: ToolContext): string {
  return ctx.workspace.display(abs);
}
