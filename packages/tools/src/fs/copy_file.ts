import { dirname } from 'node:path';
import { z } from 'zod';
import { defineTool, ToolError, type Classification, type ToolContext, type ToolOutput } from '@toolbelt/core';
import { FILE_OPS } from './groups.js';
import { copyInto, replaceAtomically } from '../text/atomic.js';
import { openChecked } from '../workspace/special.js';
import { mkdirsChecked } from '../text/opened.js';
import { fsError } from '../errno.js';
import { formatBytes } from '../text/amounts.js';
import { forgetSeen } from './freshness.js';
import { resolveTransfer } from './transfer.js';

const description = `Copy one file, keeping its permissions; missing parents are created, and an existing directory as destination receives it under its own name. Not for directories (use shell_exec).`;

const input = z.object({
  source: z.string().describe('File to copy.'),
  destination: z.string().describe('New path or existing directory.'),
  overwrite: z.boolean().optional().describe('Replace an existing file there.'),
});

type Input = z.infer<typeof input>;

async function execute(args: Input, ctx: ToolContext): Promise<ToolOutput> {
  const t = await resolveTransfer(args, ctx, 'read');
  if (!t.srcStat.isFile())
    throw new ToolError(
      'INVALID_PARAMS',
      `${t.srcShown} is a directory; copy_file copies single files (copy a directory with a shell command).`,
    );
  try {
    mkdirsChecked(dirname(t.dest), t.destShown);
    // Checked again on what is opened: the source may have been swapped since it was resolved.
    const { fh: src } = await openChecked(t.src, t.srcShown);
    try {
      await replaceAtomically(
        t.dest,
        async (fh) => {
          await copyInto(src, fh);
        },
        { mode: t.srcStat.mode & 0o7777, resolved: true },
      );
    } finally {
      await src.close();
    }
  } catch (err) {
    throw fsError(err, t.destShown);
  }
  forgetSeen(ctx.state, t.dest);
  ctx.emit({ type: 'file.changed', path: t.dest, operation: 'copy' });
  const verb = t.destStat ? 'replacing the old one' : 'new file';
  return {
    content: `Copied ${t.srcShown} to ${t.destShown} (${formatBytes(t.srcStat.size)}, ${verb}).`,
    metadata: { source: t.srcShown, destination: t.destShown, bytes: t.srcStat.size, overwrote: Boolean(t.destStat) },
  };
}

async function classify(args: Input, ctx: ToolContext): Promise<Classification> {
  const t = await resolveTransfer(args, ctx, 'read');
  return {
    effect: 'write',
    reason: `copies ${t.srcShown} to ${t.destShown}${t.destStat ? ', replacing it' : ''}`,
    subject: { paths: [t.src, t.dest] },
  };
}

export const copyFile = defineTool({
  name: 'copy_file',
  title: 'Copy file',
  description,
  input,
  category: 'fs',
  group: FILE_OPS,
  effect: classify,
  usualEffect: 'write',
  async preview(args, ctx) {
    const t = await resolveTransfer(args, ctx, 'read');
    return {
      kind: 'text',
      text: `Copy ${t.srcShown} (${formatBytes(t.srcStat.size)}) to ${t.destShown}${t.destStat ? ', replacing the existing file' : ''}.`,
    };
  },
  execute,
});
