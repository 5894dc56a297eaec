// Source and destination for copy_file and move_file: both through the guard, `cp a dir/` meaning
// `dir/a`, and an existing destination refused unless overwrite is set.
import type { Stats } from 'node:fs';
import { basename, join } from 'node:path';
import { ToolError, type ToolContext } from '@toolbelt/core';
import { assertPlainFile } from '../workspace/special.js';
import { fsError } from '../errno.js';
import { statOrUndefined } from './on-disk.js';

export interface TransferArgs {
  source: string;
  destination: string;
  overwrite?: boolean | undefined;
}

export interface Transfer {
  src: string;
  srcShown: string;
  srcStat: Stats;
  dest: string;
  destShown: string;
  /** What is at the destination now, when something is. */
  destStat: Stats | undefined;
}

export async function resolveTransfer(
  args: TransferArgs,
  ctx: ToolContext,
  sourceAccess: 'read' | 'delete',
): Promise<Transfer> {
  const ws = ctx.workspace;
  const src = await ws.resolve(args.source, sourceAccess);
  const srcShown = ws.display(src);
  const srcStat = await statOrUndefined(src).catch((err) => {
    throw fsError(err, srcShown);
  });
  if (!srcStat)
    throw new ToolError('NOT_FOUND', `${srcShown} does not exist. Check the source path with list_directory or glob.`);
  // A copy reads its source: special and hard-linked files are refused. A move only renames:
  // rename(2) opens nothing and moves this one name, so a pipe or a hard link moves like any file
  // and stays inside the roots.
  if (sourceAccess === 'read') assertPlainFile(srcStat, srcShown);
  let dest = await ws.resolve(args.destination, 'write');
  let destStat = await statOrUndefined(dest);
  if (destStat?.isDirectory() && dest !== src) {
    // Like cp and mv: an existing directory as destination means "into it".
    dest = await ws.resolve(join(dest, basename(src)), 'write');
    destStat = await statOrUndefined(dest);
  }
  const destShown = ws.display(dest);
  if (dest === src) throw new ToolError('INVALID_PARAMS', `source and destination are the same path (${srcShown}).`);
  if ((dest + '/').startsWith(src + '/') && srcStat.isDirectory()) {
    throw new ToolError('INVALID_PARAMS', `cannot put ${srcShown} inside itself (${destShown}).`);
  }
  if (destStat && !args.overwrite) {
    throw new ToolError(
      'CONFLICT',
      `${destShown} already exists. Pass overwrite: true to replace it, or choose another destination.`,
    );
  }
  // Replacing a destination writes it: the rule of write_file, which refuses special and hard-linked files.
  if (destStat) assertPlainFile(destStat, destShown);
  if (destStat?.isDirectory())
    throw new ToolError(
      'CONFLICT',
      `${destShown} is an existing directory; it is never replaced. Delete it first or choose another destination.`,
    );
  return { src, srcShown, srcStat, dest, destShown, destStat };
}
