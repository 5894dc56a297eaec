import { z } from 'zod';
import { defineTool, ToolError, type Invocation, type ToolContext, type ToolOutput } from '@toolbelt/core';
import { FILES } from './groups.js';
import { atomicWrite } from '../text/atomic.js';
import { looksBinary } from '../text/binary.js';
import { decodeText, encodeText, toCrlf, toLf } from '../text/encoding.js';
import { applyEdits, EditError, type Edit } from '../text/replace.js';
import { fsError } from '../errno.js';
import { FileTooLargeError } from '../text/read.js';
import { formatBytes, plural } from '../text/amounts.js';
import { readCurrent, statForWrite, statOrUndefined } from './on-disk.js';
import { diffPreview, diffStat, digest, unifiedDiff } from './diff.js';
import { assertUnchanged, recordSeen } from './freshness.js';

const description = `Replace old_string, exact text (no line numbers) that occurs once, or everywhere with replace_all. edits: several such, in order, all or none. Whole files: write_file.`;

const editSchema = z.object({
  old_string: z.string(),
  new_string: z.string(),
  replace_all: z.boolean().optional(),
});

const input = z.object({
  path: z.string(),
  old_string: z.string().optional(),
  new_string: z.string().optional(),
  replace_all: z.boolean().optional(),
  edits: z.array(editSchema).min(1).max(100).optional(),
});

type Input = z.infer<typeof input>;

/**
 * Files edit_file edits. It holds the file, its text, the edited text and a diff region in memory at
 * once (a replace_all over 20 MB once took 1.2 GB); past this size the shell does it in a stream.
 */
export const MAX_EDIT_FILE_BYTES = 10 * 1024 * 1024;

function tooLarge(shown: string, size: number): ToolError {
  return new ToolError(
    'INVALID_PARAMS',
    `${shown} is ${formatBytes(size)}; edit_file edits files up to ${formatBytes(MAX_EDIT_FILE_BYTES)}. Change it with a shell command that streams it instead, e.g. sed -i 's/old/new/g' ${shown} (or sed -i '120,140s/old/new/' for a range of lines), or split the file.`,
  );
}

function editsOf(args: Input): Edit[] {
  if (args.edits)
    return args.edits.map((e) => ({
      oldString: e.old_string,
      newString: e.new_string,
      replaceAll: e.replace_all ?? false,
    }));
  return [
    { oldString: args.old_string ?? '', newString: args.new_string ?? '', replaceAll: args.replace_all ?? false },
  ];
}

interface Plan {
  abs: string;
  shown: string;
  before: Buffer;
  after: Buffer;
  diff: string;
  counts: number[];
}

async function plan(args: Input, ctx: ToolContext): Promise<Plan> {
  const ws = ctx.workspace;
  const abs = await ws.resolve(args.path, 'write');
  const shown = ws.display(abs);
  let before: Buffer;
  try {
    const stat = await statForWrite(abs, shown);
    if (!stat)
      throw new ToolError(
        'NOT_FOUND',
        `${shown} does not exist. edit_file changes existing files; use write_file to create one.`,
      );
    assertUnchanged(ctx.state, abs, stat, shown);
    if (stat.size > MAX_EDIT_FILE_BYTES) throw tooLarge(shown, stat.size);
    // The limit again on what is opened: the file may have grown since the stat.
    before = await readCurrent(abs, shown, MAX_EDIT_FILE_BYTES).catch((err: unknown) => {
      throw err instanceof FileTooLargeError ? tooLarge(shown, err.size) : err;
    });
  } catch (err) {
    throw fsError(err, shown);
  }
  if (looksBinary(before))
    throw new ToolError('INVALID_PARAMS', `${shown} is a binary file; edit_file only edits text.`);
  const { text, format } = decodeText(before);
  // A file with CRLF throughout is edited as LF and written back as CRLF; a mixed file is edited as is.
  const crlf = format.eol === 'crlf';
  const work = crlf ? toLf(text) : text;
  const edits = editsOf(args).map((e) =>
    crlf ? { ...e, oldString: toLf(e.oldString), newString: toLf(e.newString) } : e,
  );
  let result;
  try {
    result = applyEdits(work, edits);
  } catch (err) {
    if (err instanceof EditError && format.eol === 'mixed') result = retryWithCrlf(work, edits);
    if (!result)
      throw err instanceof EditError
        ? new ToolError('INVALID_PARAMS', `${shown}: ${err.message}`, { recoverable: true })
        : err;
  }
  const afterText = crlf ? toCrlf(result.text) : result.text;
  const after = encodeText(afterText, format);
  return { abs, shown, before, after, diff: unifiedDiff(shown, text, afterText), counts: result.counts };
}

/** In a file with mixed line endings, text copied from read_file lost its \r; try it with CRLF. */
function retryWithCrlf(text: string, edits: Edit[]) {
  try {
    return applyEdits(
      text,
      edits.map((e) => ({ ...e, oldString: toCrlf(toLf(e.oldString)), newString: toCrlf(toLf(e.newString)) })),
    );
  } catch {
    return undefined;
  }
}

/**
 * The call: classified by the path it edits; its preview is the diff a person approves, and the run
 * refuses when the file no longer has the content that diff was made from.
 */
async function prepare(args: Input, ctx: ToolContext): Promise<Invocation> {
  const ws = ctx.workspace;
  const abs = await ws.resolve(args.path, 'write');
  let approvedBase: string | undefined;
  return {
    classification: { effect: 'write', reason: `edits ${ws.display(abs)}`, subject: { paths: [abs] } },
    async preview() {
      const p = await plan(args, ctx);
      approvedBase = digest(p.before);
      return diffPreview(p.shown, p.diff);
    },
    run: () => edit(args, ctx, approvedBase),
  };
}

/** `approvedBase`: the digest of the content the approved diff was made from, when a person approved one. */
async function edit(args: Input, ctx: ToolContext, approvedBase: string | undefined): Promise<ToolOutput> {
  const p = await plan(args, ctx);
  if (approvedBase !== undefined && approvedBase !== digest(p.before)) {
    throw new ToolError(
      'CONFLICT',
      `${p.shown} changed while the edit waited for approval, so the approved diff no longer applies. Read it again and retry.`,
    );
  }
  try {
    await atomicWrite(p.abs, p.after, { resolved: true });
    const stat = await statOrUndefined(p.abs);
    if (stat) recordSeen(ctx.state, p.abs, stat);
  } catch (err) {
    throw fsError(err, p.shown);
  }
  ctx.emit({ type: 'file.changed', path: p.abs, operation: 'write' });
  const { added, removed } = diffStat(p.diff);
  const replaced = p.counts.reduce((a, b) => a + b, 0);
  return {
    content: `Edited ${p.shown}: ${plural(replaced, 'replacement')} (+${added} -${removed} lines).`,
    display: { kind: 'diff', diff: p.diff, path: p.shown },
    metadata: { path: p.shown, replacements: p.counts, added, removed },
  };
}

export const editFile = defineTool({
  name: 'edit_file',
  title: 'Edit file',
  description,
  input,
  category: 'fs',
  group: FILES,
  usualEffect: 'write',
  validate(args) {
    const single = args.old_string !== undefined || args.new_string !== undefined;
    if (args.edits && single) return 'give either old_string/new_string or edits, not both';
    if (!args.edits && (args.old_string === undefined || args.new_string === undefined))
      return 'give old_string and new_string (or edits: [...])';
    return undefined;
  },
  prepare,
});
