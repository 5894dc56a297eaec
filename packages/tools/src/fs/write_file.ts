import { mkdirsChecked } from '../text/opened.js';
import { dirname } from 'node:path';
import { z } from 'zod';
import { defineTool, ToolError, type Invocation, type ToolContext, type ToolOutput } from '@toolbelt/core';
import { FILES } from './groups.js';
import { atomicWrite } from '../text/atomic.js';
import { decodeText, encodeText, matchEol, type TextFormat } from '../text/encoding.js';
import { looksBinary } from '../text/binary.js';
import { fsError } from '../errno.js';
import { formatBytes, plural } from '../text/amounts.js';
import { readCurrent, statForWrite, statOrUndefined } from './on-disk.js';
import { diffPreview, diffStat, digest, lineCount, unifiedDiff } from './diff.js';
import { assertUnchanged, recordSeen } from './freshness.js';

const description = `Create or overwrite a whole file, with missing parents. For part of a file use edit_file.`;

const input = z.object({
  path: z.string(),
  content: z.string(),
});

type Input = z.infer<typeof input>;

interface Plan {
  abs: string;
  shown: string;
  before: Buffer | undefined;
  data: Buffer;
  diff: string;
}

async function plan({ path, content }: Input, ctx: ToolContext): Promise<Plan> {
  if (/[/\\]$/.test(path))
    throw new ToolError(
      'INVALID_PARAMS',
      `${path} ends with "/": give the path of a file, or use create_directory for a directory.`,
    );
  const ws = ctx.workspace;
  const abs = await ws.resolve(path, 'write');
  const shown = ws.display(abs);
  try {
    const stat = await statForWrite(abs, shown);
    if (stat?.isDirectory()) throw Object.assign(new Error('is a directory'), { code: 'EISDIR' });
    assertUnchanged(ctx.state, abs, stat, shown);
    const before = stat ? await readCurrent(abs, shown) : undefined;
    let format: TextFormat = { bom: false, eol: 'none' };
    let beforeText = '';
    if (before && !looksBinary(before)) ({ text: beforeText, format } = decodeText(before));
    const text = matchEol(content, format.eol);
    const data = encodeText(text, format);
    const diff =
      before && looksBinary(before)
        ? `(replaces a binary file of ${formatBytes(before.length)})\n`
        : unifiedDiff(shown, beforeText, text, { created: !before });
    return { abs, shown, before, data, diff };
  } catch (err) {
    throw fsError(err, shown);
  }
}

/**
 * The call: classified by the path it writes; its preview is the diff a person approves, and the
 * run refuses when the file no longer has the content that diff was made from.
 */
async function prepare(args: Input, ctx: ToolContext): Promise<Invocation> {
  const ws = ctx.workspace;
  const abs = await ws.resolve(args.path, 'write');
  const exists = (await statOrUndefined(abs)) !== undefined;
  let approvedBase: string | undefined;
  return {
    classification: {
      effect: 'write',
      reason: `${exists ? 'replaces' : 'creates'} ${ws.display(abs)}`,
      subject: { paths: [abs] },
    },
    async preview() {
      const p = await plan(args, ctx);
      approvedBase = digest(p.before ?? '');
      return diffPreview(p.shown, p.diff);
    },
    run: () => write(args, ctx, approvedBase),
  };
}

/** `approvedBase`: the digest of the content the approved diff was made from, when a person approved one. */
async function write(args: Input, ctx: ToolContext, approvedBase: string | undefined): Promise<ToolOutput> {
  const p = await plan(args, ctx);
  if (approvedBase !== undefined && approvedBase !== digest(p.before ?? '')) {
    throw new ToolError(
      'CONFLICT',
      `${p.shown} changed while the write waited for approval, so the approved diff no longer applies. Read it again and retry.`,
    );
  }
  try {
    mkdirsChecked(dirname(p.abs), p.shown);
    await atomicWrite(p.abs, p.data, { resolved: true });
    const stat = await statOrUndefined(p.abs);
    if (stat) recordSeen(ctx.state, p.abs, stat);
  } catch (err) {
    throw fsError(err, p.shown);
  }
  ctx.emit({ type: 'file.changed', path: p.abs, operation: p.before ? 'write' : 'create' });
  const { added, removed } = diffStat(p.diff);
  const verb = p.before ? 'Replaced' : 'Created';
  return {
    content: `${verb} ${p.shown}: ${plural(p.data.length, 'byte')}, ${plural(lineCount(p.data.toString('utf8')), 'line')} (+${added} -${removed}).`,
    display: { kind: 'diff', diff: p.diff, path: p.shown },
    metadata: { path: p.shown, bytesWritten: p.data.length, created: !p.before, added, removed },
  };
}

export const writeFile = defineTool({
  name: 'write_file',
  title: 'Write file',
  description,
  input,
  category: 'fs',
  group: FILES,
  usualEffect: 'write',
  prepare,
});
