import { z } from 'zod';
import { defineTool, ToolError, type Classification, type ToolContext, type ToolOutput } from '@toolbelt/core';
import { FILE_OPS } from './groups.js';
import { fsError } from '../errno.js';
import { mkdirsChecked } from '../text/opened.js';
import { statOrUndefined } from './on-disk.js';

const description = `Create a directory with parents (mkdir -p); fine if it exists.`;

const input = z.object({
  path: z.string(),
});

type Input = z.infer<typeof input>;

async function execute(args: Input, ctx: ToolContext): Promise<ToolOutput> {
  const ws = ctx.workspace;
  const abs = await ws.resolve(args.path, 'write');
  const shown = ws.display(abs);
  try {
    const existing = await statOrUndefined(abs);
    if (existing?.isDirectory())
      return { content: `${shown} already exists.`, metadata: { path: shown, created: false } };
    if (existing)
      throw new ToolError(
        'CONFLICT',
        `${shown} exists and is not a directory; choose another name or delete it first.`,
      );
    mkdirsChecked(abs, shown);
  } catch (err) {
    throw fsError(err, shown);
  }
  ctx.emit({ type: 'file.changed', path: abs, operation: 'mkdir' });
  return { content: `Created directory ${shown}.`, metadata: { path: shown, created: true } };
}

async function classify(args: Input, ctx: ToolContext): Promise<Classification> {
  const ws = ctx.workspace;
  const abs = await ws.resolve(args.path, 'write');
  return { effect: 'write', reason: `creates directory ${ws.display(abs)}`, subject: { paths: [abs] } };
}

export const createDirectory = defineTool({
  name: 'create_directory',
  title: 'Create directory',
  description,
  input,
  category: 'fs',
  group: FILE_OPS,
  effect: classify,
  usualEffect: 'write',
  annotations: { idempotent: true },
  execute,
});
