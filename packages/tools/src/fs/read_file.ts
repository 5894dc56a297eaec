import { closeSync, type Stats } from 'node:fs';
import { z } from 'zod';
import { defineTool, ToolError, type Invocation, type ToolContext, type ToolOutput } from '@toolbelt/core';
import { FILES } from './groups.js';
import { looksBinary, SNIFF_BYTES } from '../text/binary.js';
import { decodeText, utf16Bom } from '../text/encoding.js';
import { readTail, readWindow, windowOfText, type LineWindow } from '../text/lines.js';
import type { FileHandle } from 'node:fs/promises';
import { readAllSync, readHead } from '../text/read.js';
import { openChecked, openCheckedSync } from '../workspace/special.js';
import { fsError } from '../errno.js';
import { formatBytes } from '../text/amounts.js';
import { describeBinary, imageMime, isDocx, readDocx, readImage } from './formats.js';
import { recordSeen } from './freshness.js';
import { locateForRead } from './locate.js';

const DEFAULT_LINES = 2000;
const MAX_LINE_CHARS = 2000;
const MAX_CHARS = 40_000;
const COUNT_LINES_UP_TO = 16 * 1024 * 1024;
/** Files up to this size are read with one read call and windowed in memory. */
const SMALL_FILE = 256 * 1024;
const MAX_UTF16_BYTES = 32 * 1024 * 1024;

const description = `Read a file with line numbers: up to ${DEFAULT_LINES} lines, ~${MAX_CHARS.toLocaleString('en-US')} chars a call; the footer gives the next offset. Lines over ${MAX_LINE_CHARS} chars are cut. .docx as text, png/jpg/gif/webp as image (max 5 MB). Read before edit_file.`;

const input = z.object({
  path: z.string(),
  offset: z.number().int().optional().describe('First line; negative counts from the end.'),
  limit: z.number().int().min(1).max(DEFAULT_LINES).optional().describe('Lines.'),
});

type Input = z.infer<typeof input>;

function formatWindow(w: LineWindow, shown: string, size: number): { text: string; cut: number } {
  let cut = 0;
  const out: string[] = [];
  for (const line of w.lines) {
    let text = line.n === 1 && line.text.charCodeAt(0) === 0xfeff ? line.text.slice(1) : line.text;
    if (line.cutFrom !== undefined) {
      cut++;
      text += ` … [line cut at ${MAX_LINE_CHARS} characters; it is ${formatBytes(line.cutFrom)}]`;
    }
    // No padding: the number and a tab are all the model needs, and every space is paid for.
    out.push(`${line.n}\t${text}`);
  }
  const notes: string[] = [];
  if (w.lines.length === 0) {
    notes.push(
      size === 0 || w.total === 0
        ? `(${shown} is empty)`
        : `(${shown} has ${w.total ?? 'fewer'} lines; nothing at that offset. Use a smaller offset.)`,
    );
  } else if (w.more) {
    const first = w.lines[0].n;
    const last = w.lines[w.lines.length - 1].n;
    const of = w.total !== undefined ? ` of ${w.total}` : ` of a ${formatBytes(size)} file`;
    const why = w.full ? ` (output limit of about ${MAX_CHARS.toLocaleString('en-US')} characters)` : '';
    notes.push(`(showing lines ${first}-${last}${of}${why}; call read_file with offset=${last + 1} to read more)`);
  }
  return { text: [...out, ...notes].join('\n'), cut };
}

async function readSmall(fh: FileHandle, size: number): Promise<Buffer> {
  const buf = Buffer.allocUnsafe(size);
  let got = 0;
  while (got < size) {
    const { bytesRead } = await fh.read(buf, got, size - got, got);
    if (bytesRead === 0) break;
    got += bytesRead;
  }
  return buf.subarray(0, got);
}

/** The path is resolved once, to classify the call, and read by its run. */
async function prepare(args: Input, ctx: ToolContext): Promise<Invocation> {
  const { abs, note } = await locateForRead(args.path, ctx.workspace);
  return {
    classification: { effect: 'read', subject: { paths: [abs] } },
    run: () => read(args, abs, ctx).then((out) => (note ? withNote(out, note) : out)),
  };
}

/** The output with a first line saying which file was read. */
function withNote(out: ToolOutput, note: string): ToolOutput {
  const content =
    typeof out.content === 'string'
      ? `${note}\n${out.content}`
      : [{ type: 'text' as const, text: note }, ...(out.content ?? [])];
  return { ...out, content, metadata: { ...out.metadata, foundFromRoot: true } };
}

/** An opened file: a small regular file already read whole, a larger one open for streaming reads. */
interface OpenFile {
  abs: string;
  shown: string;
  stat: Stats;
  small?: Buffer;
  fh?: FileHandle;
}

async function read(args: Input, abs: string, ctx: ToolContext): Promise<ToolOutput> {
  const file = await openFile(abs, ctx.workspace.display(abs), ctx.workspace.roots);
  try {
    return await readOpen(args, file, ctx);
  } catch (err) {
    throw fsError(err, file.shown);
  } finally {
    await file.fh?.close();
  }
}

async function openFile(abs: string, shown: string, roots: readonly string[]): Promise<OpenFile> {
  try {
    // One non-blocking open and fstat (a named pipe or device is refused before any read); a small
    // regular file is read right here, a larger one is reopened for the streaming reads. A symlink
    // swapped in since prepare resolved the path is refused by the O_NOFOLLOW open (ELOOP).
    const first = openCheckedSync(abs, shown, roots);
    let small: Buffer | undefined;
    try {
      if (first.stat.isFile() && first.stat.size <= SMALL_FILE) small = readAllSync(first.fd, first.stat.size);
    } finally {
      closeSync(first.fd);
    }
    if (small || !first.stat.isFile()) return { abs, shown, stat: first.stat, ...(small ? { small } : {}) };
    const { fh, stat } = await openChecked(abs, shown, roots);
    return { abs, shown, stat, fh };
  } catch (err) {
    throw fsError(err, shown);
  }
}

async function readOpen(args: Input, file: OpenFile, ctx: ToolContext): Promise<ToolOutput> {
  const { abs, shown, stat, fh } = file;
  if (stat.isDirectory())
    throw new ToolError('INVALID_PARAMS', `${shown} is a directory; use list_directory to see what it holds.`);
  const size = stat.size;
  // fh is open exactly when the file was not read whole at open.
  const data = file.small ?? (size <= SMALL_FILE ? await readSmall(fh!, size) : undefined);
  const head = data ? data.subarray(0, SNIFF_BYTES) : await readHead(fh!, SNIFF_BYTES);
  const meta = { path: shown, bytes: size };

  const mime = imageMime(head);
  if (mime) {
    const image = await readImage(fh!, size, shown, data);
    recordSeen(ctx.state, abs, stat);
    return {
      content: [
        { type: 'image', data: image.toString('base64'), mimeType: mime },
        { type: 'text', text: `${shown}: ${mime} image, ${formatBytes(size)}` },
      ],
      metadata: { ...meta, mimeType: mime },
    };
  }
  const docx = isDocx(abs, head);
  if (!docx && looksBinary(head)) {
    recordSeen(ctx.state, abs, stat);
    return { content: describeBinary(shown, head, size), metadata: { ...meta, binary: true } };
  }
  const { window, kind } = await textWindow(args, file, head, data, docx);
  recordSeen(ctx.state, abs, stat);
  const { text, cut } = formatWindow(window, shown, size);
  const shownLines = window.lines.length ? [window.lines[0].n, window.lines[window.lines.length - 1].n] : [];
  return {
    content: text,
    metadata: {
      ...meta,
      kind,
      lines: shownLines,
      ...(window.total !== undefined ? { totalLines: window.total } : {}),
      more: window.more,
      ...(cut ? { cutLines: cut } : {}),
    },
  };
}

/** The lines asked for, from a docx's text, a UTF-16 file, a file in memory, or by streaming reads. */
async function textWindow(
  { offset, limit }: Input,
  { shown, stat, fh }: OpenFile,
  head: Buffer,
  data: Buffer | undefined,
  docx: boolean,
): Promise<{ window: LineWindow; kind: string }> {
  const size = stat.size;
  const opts = {
    offset: Math.max(1, offset ?? 1),
    limit: limit ?? DEFAULT_LINES,
    maxLineChars: MAX_LINE_CHARS,
    maxChars: MAX_CHARS,
  };
  const tail = offset !== undefined && offset < 0 ? -offset : undefined;
  if (docx) return { window: windowOfText(await readDocx(fh!, size, shown, data), opts, tail), kind: 'docx' };
  if (utf16Bom(head)) {
    if (size > MAX_UTF16_BYTES)
      throw new ToolError(
        'INVALID_PARAMS',
        `${shown} is UTF-16 and ${formatBytes(size)}; UTF-16 files over ${formatBytes(MAX_UTF16_BYTES)} are not read.`,
      );
    return { window: windowOfText(decodeText(data ?? (await fh!.readFile())).text, opts, tail), kind: 'utf16' };
  }
  if (data) return { window: windowOfText(decodeText(data).text, opts, tail), kind: 'text' };
  if (tail !== undefined) return { window: await readTail(fh!, size, Math.min(tail, opts.limit), opts), kind: 'text' };
  return { window: await readWindow(fh!, size, { ...opts, countUpTo: COUNT_LINES_UP_TO }), kind: 'text' };
}

export const readFile = defineTool({
  name: 'read_file',
  title: 'Read file',
  description,
  input,
  category: 'fs',
  group: FILES,
  usualEffect: 'read',
  annotations: { idempotent: true },
  prepare,
});
