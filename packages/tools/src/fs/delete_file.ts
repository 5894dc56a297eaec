import { lstat, readdir, rm, rmdir, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { inDir } from '../text/opened.js';
import { z } from 'zod';
import {
  defineTool,
  ToolError,
  type Classification,
  type ToolContext,
  type ToolOutput,
  type Workspace,
} from '@toolbelt/core';
import { FILE_OPS } from './groups.js';
import { sensitiveReason } from '../workspace/sensitive.js';
import { specialKind } from '../workspace/special.js';
import { fsError } from '../errno.js';
import { formatBytes, plural } from '../text/amounts.js';
import { forgetSeen } from './freshness.js';

const MAX_ENTRIES = 100_000;

const description = `Delete a file, link (not its target) or directory; no undo. Refuses a directory with protected files (.env, keys, .git) or over ${MAX_ENTRIES.toLocaleString('en-US')} entries.`;

const input = z.object({
  path: z.string().describe('What to delete.'),
  recursive: z.boolean().optional().describe('Needed for a non-empty directory.'),
});

type Input = z.infer<typeof input>;

interface Target {
  abs: string;
  shown: string;
  kind: 'file' | 'link' | 'directory';
  /** For a special file (named pipe, socket, device): what it is. */
  special?: string;
  size: number;
  files: number;
  dirs: number;
}

/** Counts what a recursive delete would remove, and refuses when a protected path is among it. */
async function survey(ws: Workspace, dir: string, t: Target): Promise<void> {
  const stack = [dir];
  while (stack.length) {
    const current = stack.pop()!;
    for (const entry of await readdir(current, { withFileTypes: true })) {
      const abs = join(current, entry.name);
      if (++t.files + t.dirs > MAX_ENTRIES) {
        throw new ToolError(
          'INVALID_PARAMS',
          `${t.shown} holds more than ${MAX_ENTRIES.toLocaleString('en-US')} entries; delete it with a shell command if that is really intended.`,
        );
      }
      if (sensitiveReason(ws.display(abs), 'delete')) await ws.resolve(abs, 'delete');
      if (entry.isDirectory()) {
        t.files--;
        t.dirs++;
        stack.push(abs);
      } else if (entry.isFile()) {
        t.size += (await lstat(abs)).size;
      }
    }
  }
}

async function target(args: Input, ctx: ToolContext, full: boolean): Promise<Target> {
  const ws = ctx.workspace;
  const abs = await ws.resolve(args.path, 'delete');
  const shown = ws.display(abs);
  try {
    // Deleting opens nothing: unlink(2) removes this one name, whatever is behind it. So a named
    // pipe, a socket or a device node is deleted like a file (nothing can block), and a file with
    // several hard links loses only this name (its other names and their content stay): deleting
    // it is what the other tools' refusal of hard-linked files asks for.
    const st = await lstat(abs);
    const kind = st.isSymbolicLink() ? 'link' : st.isDirectory() ? 'directory' : 'file';
    const special = specialKind(st);
    const t: Target = {
      abs,
      shown,
      kind,
      ...(special ? { special } : {}),
      size: kind === 'file' ? st.size : 0,
      files: 0,
      dirs: 0,
    };
    if (kind === 'directory' && full) await survey(ws, abs, t);
    return t;
  } catch (err) {
    throw fsError(err, shown);
  }
}

function describe(t: Target): string {
  if (t.special) return `${t.special} ${t.shown}`;
  if (t.kind === 'file') return `file ${t.shown} (${formatBytes(t.size)})`;
  if (t.kind === 'link') return `symbolic link ${t.shown} (its target is kept)`;
  if (t.files + t.dirs === 0) return `empty directory ${t.shown}`;
  return `directory ${t.shown} with ${plural(t.files, 'file')} and ${plural(t.dirs, 'subdirectory', 'subdirectories')} (${formatBytes(t.size)})`;
}

async function execute(args: Input, ctx: ToolContext): Promise<ToolOutput> {
  const t = await target(args, ctx, args.recursive === true);
  try {
    // The name is removed through its checked parent directory (text/opened.ts): a directory
    // on the path swapped for a link since it was resolved cannot redirect the delete.
    await inDir(dirname(t.abs), t.shown, async (d) => {
      const at = d.at(basename(t.abs));
      if (t.kind !== 'directory') await unlink(at);
      else if (args.recursive) await rm(at, { recursive: true });
      else await rmdir(at);
    });
  } catch (err) {
    throw fsError(err, t.shown);
  }
  forgetSeen(ctx.state, t.abs);
  ctx.emit({ type: 'file.changed', path: t.abs, operation: 'delete' });
  return {
    content: `Deleted ${describe(t)}.`,
    metadata: { path: t.shown, kind: t.kind, files: t.files, dirs: t.dirs, bytes: t.size },
  };
}

async function classify(args: Input, ctx: ToolContext): Promise<Classification> {
  const ws = ctx.workspace;
  const abs = await ws.resolve(args.path, 'delete');
  return {
    effect: 'destructive',
    reason: `deletes ${ws.display(abs)}${args.recursive ? ' and everything in it' : ''}`,
    subject: { paths: [abs] },
  };
}

export const deleteFile = defineTool({
  name: 'delete_file',
  title: 'Delete file',
  description,
  input,
  category: 'fs',
  group: FILE_OPS,
  effect: classify,
  usualEffect: 'destructive',
  async preview(args, ctx) {
    return { kind: 'text', text: `Delete ${describe(await target(args, ctx, true))}.` };
  },
  execute,
});
