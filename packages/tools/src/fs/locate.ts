// A relative path that names nothing under the working directory is looked up from each workspace
// root, as a path someone gave from the top of the repository usually is; the caller says so.
import { stat } from 'node:fs/promises';
import { isAbsolute, join } from 'node:path';
import type { Workspace } from '@toolbelt/core';

export interface Located {
  abs: string;
  /** Set when the file was found from a root, not the working directory: why it was read from there. */
  note?: string;
}

const exists = (abs: string) =>
  stat(abs).then(
    () => true,
    () => false,
  );

export async function locateForRead(path: string, ws: Workspace): Promise<Located> {
  const abs = await ws.resolve(path, 'read');
  if (isAbsolute(path) || ws.roots.every((r) => r === ws.cwd) || (await exists(abs))) return { abs };
  for (const root of ws.roots) {
    if (root === ws.cwd) continue;
    const found = await ws.resolve(join(root, path), 'read').catch(() => undefined);
    if (found && (await exists(found))) {
      return {
        abs: found,
        note: `(${path} is not under the working directory ${ws.display(ws.cwd)}; read ${ws.display(found)} from the workspace root)`,
      };
    }
  }
  return { abs };
}
