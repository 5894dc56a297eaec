import { z } from 'zod';
import { defineTool, ToolError, type Classification, type ToolContext, type ToolOutput } from '@toolbelt/core';
import { FILE_OPS } from './groups.js';
import { copyInto, replaceAtomically } from '../text/atomic.js';
import { looksBinary } from '../text/binary.js';
import { openChecked } from '../workspace/special.js';
import { fsError } from '../errno.js';
import { plural } from '../text/amounts.js';
import { statForWrite, statOrUndefined } from './on-disk.js';
import { diffPreview } from './diff.js';
import { recordSeen } from './freshness.js';

const description = `Append to an existing file (create with write_file); add a leading "\\n" if the file lacks a final newline.`;

const input = z.object({
  path: z.string().describe('Existing file.'),
  content: z.string().min(1).describe('Text to add.'),
});

type Input = z.infer<typeof input>;

const TAIL_BYTES = 4096;

async function target(args: Input, ctx: ToolContext) {
  const ws = ctx.workspace;
  const abs = await ws.resolve(args.path, 'write');
  const shown = ws.display(abs);
  const stat = await statForWrite(abs, shown).catch((err) => {
    throw fsError(err, shown);
  });
  if (!stat)
    throw new ToolError(
      'NOT_FOUND',
      `${shown} does not exist; append_file only adds to existing files. Use write_file to create it.`,
    );
  if (!stat.isFile()) throw new ToolError('INVALID_PARAMS', `${shown} is a directory; append_file adds to files.`);
  return { abs, shown, size: stat.size };
}

/** The last few lines before the end, for a preview that shows where the text lands. */
async function tailText(abs: string, shown: string, size: number): Promise<string> {
  const { fh } = await openChecked(abs, shown);
  try {
    const len = Math.min(size, TAIL_BYTES);
    const buf = Buffer.alloc(len);
    await fh.read(buf, 0, len, size - len);
    if (looksBinary(buf)) return '';
    const text = buf.toString('utf8');
    const lines = text.split('\n');
    return lines.slice(Math.max(1, lines.length - 4)).join('\n');
  } finally {
    await fh.close();
  }
}

async function execute(args: Input, ctx: ToolContext): Promise<ToolOutput> {
  const { abs, shown } = await target(args, ctx);
  const data = Buffer.from(args.content, 'utf8');
  try {
    // Checked again on what is opened: the file may have been swapped since target() looked.
    const { fh: src } = await openChecked(abs, shown);
    try {
      // Copy the old bytes into a temp file, add the new ones, rename over: never a half-append.
      await replaceAtomically(
        abs,
        async (fh) => {
          await copyInto(src, fh);
          await fh.write(data);
        },
        { resolved: true },
      );
    } finally {
      await src.close();
    }
    const stat = await statOrUndefined(abs);
    if (stat) recordSeen(ctx.state, abs, stat);
  } catch (err) {
    throw fsError(err, shown);
  }
  ctx.emit({ type: 'file.changed', path: abs, operation: 'write' });
  return {
    content: `Appended ${plural(data.length, 'byte')} to ${shown}.`,
    metadata: { path: shown, bytesWritten: data.length },
  };
}

async function classify(args: Input, ctx: ToolContext): Promise<Classification> {
  const ws = ctx.workspace;
  const abs = await ws.resolve(args.path, 'write');
  return { effect: 'write', reason: `appends to ${ws.display(abs)}`, subject: { paths: [abs] } };
}

export const appendFile = defineTool({
  name: 'append_file',
  title: 'Append to file',
  description,
  input,
  category: 'fs',
  group: FILE_OPS,
  effect: classify,
  usualEffect: 'write',
  async preview(args, ctx) {
    const { abs, shown, size } = await target(args, ctx);
    const before = await tailText(abs, shown, size).catch(() => '');
    const context = before.split('\n').filter((_, i, a) => i < a.length - 1 || a[i] !== '');
    const added = args.content.split('\n');
    if (added[added.length - 1] === '') added.pop();
    const diff =
      [
        `--- a/${shown}`,
        `+++ b/${shown}`,
        '@@ end of file @@',
        ...context.map((l) => ` ${l}`),
        ...added.map((l) => `+${l}`),
      ].join('\n') + '\n';
    return diffPreview(shown, diff);
  },
  execute,
});
