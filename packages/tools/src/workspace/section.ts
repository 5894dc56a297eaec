// The `workspace` section of toolbelt.config.json: more roots beside --root, and where relative
// paths and commands start.
import { resolve } from 'node:path';
import { z } from 'zod';
import { stringList } from '@toolbelt/core';

export const workspaceSection = z
  .strictObject({
    roots: stringList('a list of directories').describe('More workspace roots, relative to the first').optional(),
    cwd: z
      .string()
      .describe('Where relative paths and commands start, relative to the first root and inside the roots')
      .optional(),
  })
  .describe('Workspace roots beside --root');

export type WorkspaceSection = z.infer<typeof workspaceSection>;

/**
 * The workspace guard's roots and cwd: the given roots (--root), then workspace.roots resolved against
 * the first; workspace.cwd as written (the guard resolves it and refuses one outside the roots).
 */
export function workspaceOptionsFrom(
  workspace: WorkspaceSection | undefined,
  roots: readonly string[],
): { roots: string[]; cwd?: string } {
  return {
    roots: [...roots, ...(workspace?.roots ?? []).map((r) => resolve(roots[0], r))],
    ...(workspace?.cwd ? { cwd: workspace.cwd } : {}),
  };
}
