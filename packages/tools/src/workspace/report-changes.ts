// Telling what a command changed on disk (file.changed), for tools that change files by other
// means than the fs tools: a shell command whose targets are known before it runs, a git switch.
// Editors reload what they show (toolbelt.el reverts a buffer visiting such a file).
import { existsSync } from 'node:fs';
import type { ToolContext } from '@toolbelt/core';

/** One file.changed per path: `delete` when it is gone now, else `write`. */
export function reportChanges(ctx: ToolContext, paths: readonly string[]): void {
  for (const path of new Set(paths))
    ctx.emit({ type: 'file.changed', path, operation: existsSync(path) ? 'write' : 'delete' });
}
