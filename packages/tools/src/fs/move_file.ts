import { rename } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import { inDir, mkdirsChecked } from '../text/opened.js';
import { z } from 'zod';
import { defineTool, type Classification, type ToolContext, type ToolOutput } from '@toolbelt/core';
import { FILE_OPS } from './groups.js';
import { fsError } from '../errno.js';
import { forgetSeen } from './freshness.js';
import { resolveTransfer } from './transfer.js';

const description = `Move or rename a file or directory, creating parents; not across file systems, never replacing a directory.`;

const input = z.object({
  source: z.string(),
  destination: z.string(),
  overwrite: z.boolean().optional().describe('Replace an existing file.'),
});

type Input = z.infer<typeof input>;

async function execute(args: Input, ctx: ToolContext): Promise<ToolOutput> {
  const t = await resolveTransfer(args, ctx, 'delete');
  try {
    mkdirsChecked(dirname(t.dest), t.destShown);
    // Both names are reached through their checked directories (text/opened.ts).
    await inDir(dirname(t.src), t.srcShown, (from) =>
      inDir(dirname(t.dest), t.destShown, (to) => rename(from.at(basename(t.src)), to.at(basename(t.dest)))),
    );
  } catch (err) {
    throw fsError(err, t.srcShown);
  }
  forgetSeen(ctx.state, t.src);
  forgetSeen(ctx.state, t.dest);
  ctx.emit({ type: 'file.changed', path: t.src, operation: 'move' });
  ctx.emit({ type: 'file.changed', path: t.dest, operation: 'move' });
  return {
    content: `Moved ${t.srcShown} to ${t.destShown}${t.destStat ? ' (replaced the file that was there)' : ''}.`,
    metadata: { source: t.srcShown, destination: t.destShown, overwrote: Boolean(t.destStat) },
  };
}

async function classify(args: Input, ctx: ToolContext): Promise<Classification> {
  const t = await resolveTransfer(args, ctx, 'delete');
  // Replacing an existing file loses it: that is destructive, not just a write.
  return {
    effect: t.destStat ? 'destructive' : 'write',
    reason: `moves ${t.srcShown} to ${t.destShown}${t.destStat ? ', replacing it' : ''}`,
    subject: { paths: [t.src, t.dest] },
  };
}

export const moveFile = defineTool({
  name: 'move_file',
  title: 'Move file',
  description,
  input,
  category: 'fs',
  group: FILE_OPS,
  effect: classify,
  usualEffect: 'write',
  // For MCP clients: a move with overwrite replaces a file (that call is classified destructive).
  annotations: { destructive: true },
  async preview(args, ctx) {
    const t = await resolveTransfer(args, ctx, 'delete');
    return {
      kind: 'text',
      text: `Move ${t.srcShown} to ${t.destShown}${t.destStat ? ', replacing the existing file' : ''}.`,
    };
  },
  execute,
});
