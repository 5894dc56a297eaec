// Where a command runs: the workspace cwd, or a `cwd` parameter that must stay inside the
// workspace; and the environment it gets.
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { ToolError, type ToolContext } from '@toolbelt/core';

export async function resolveCwd(cwd: string | undefined, ctx: ToolContext): Promise<string> {
  const ws = ctx.workspace;
  // The workspace cwd was checked when the workspace was made; if it has gone since, bash fails to start and says so.
  if (ws && (cwd === undefined || cwd === '')) return ws.cwd;
  const abs = !ws ? resolve(process.cwd(), cwd ?? '.') : await ws.resolve(cwd!, 'list');
  let isDir = false;
  try {
    isDir = (await stat(abs)).isDirectory();
  } catch {
    throw new ToolError('NOT_FOUND', `cwd ${cwd} does not exist. Pass an existing directory inside the workspace, or leave cwd out to use ${ws ? ws.display(ws.cwd) : process.cwd()}.`);
  }
  if (!isDir) throw new ToolError('INVALID_PARAMS', `cwd ${cwd} is a file, not a directory. Pass its directory instead.`);
  return abs;
}

export function displayCwd(abs: string, ctx: ToolContext): string {
  return ctx.workspace ? ctx.workspace.display(abs) : abs;
}
