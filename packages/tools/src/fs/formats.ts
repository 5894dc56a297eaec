// File formats read_file handles besides plain text: images as image content, .docx as text,
// and a one-line description for any other binary file.
import type { FileHandle } from 'node:fs/promises';
import { ToolError } from '@toolbelt/core';
import { sniffFormat } from '../text/binary.js';
import { formatBytes } from '../text/amounts.js';

const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
const MAX_DOCX_BYTES = 50 * 1024 * 1024;

const IMAGE_MIMES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

/** The image MIME type when the file's bytes say it is a png/jpg/gif/webp. */
export function imageMime(head: Uint8Array): string | undefined {
  const mime = sniffFormat(head)?.mime;
  return mime && IMAGE_MIMES.has(mime) ? mime : undefined;
}

export async function readImage(fh: FileHandle, size: number, shown: string, data?: Buffer): Promise<Buffer> {
  if (size > MAX_IMAGE_BYTES) {
    throw new ToolError(
      'INVALID_PARAMS',
      `${shown} is an image of ${formatBytes(size)}; images over ${formatBytes(MAX_IMAGE_BYTES)} are not returned. Resize it first (for example with shell_exec).`,
    );
  }
  return data ?? fh.readFile();
}

export function isDocx(path: string, head: Uint8Array): boolean {
  return /\.docx$/i.test(path) && sniffFormat(head)?.kind.startsWith('ZIP') === true;
}

export async function readDocx(fh: FileHandle, size: number, shown: string, data?: Buffer): Promise<string> {
  if (size > MAX_DOCX_BYTES)
    throw new ToolError(
      'INVALID_PARAMS',
      `${shown} is ${formatBytes(size)}; .docx files over ${formatBytes(MAX_DOCX_BYTES)} are not read.`,
    );
  const buffer = data ?? (await fh.readFile());
  try {
    // Loaded on first use: mammoth and its dependencies cost ~15 MB that most sessions never need.
    const { default: mammoth } = await import('mammoth');
    const { value } = await mammoth.extractRawText({ buffer });
    // mammoth separates paragraphs with blank lines; one newline per paragraph reads better.
    return value.replace(/\n\n/g, '\n');
  } catch (err) {
    throw new ToolError('EXECUTION_FAILED', `${shown} could not be read as a Word document: ${(err as Error).message}`);
  }
}

/** "photo.tiff is a binary file (2.1 MB, TIFF image) ..." */
export function describeBinary(shown: string, head: Uint8Array, size: number): string {
  const kind = sniffFormat(head)?.kind;
  return `${shown} is a binary file (${formatBytes(size)}${kind ? `, ${kind}` : ''}); its bytes are not shown. read_file returns text files, .docx documents and png/jpg/gif/webp images.`;
}
