// What is on disk now at a path a file tool is about to change: whether anything is there, and
// the whole current content (for diffs and edits), never through a symlink or a special file.
import type { Stats } from 'node:fs';
import { lstat } from 'node:fs/promises';
import { isMissing } from '../errno.js';
import { FileTooLargeError } from '../text/read.js';
import { assertPlainFile, openChecked } from '../workspace/special.js';

/** Files edit_file and write_file load whole. */
const MAX_EDIT_BYTES = 64 * 1024 * 1024;

/** lstat, or undefined when nothing is there. */
export async function statOrUndefined(abs: string): Promise<Stats | undefined> {
  try {
    return await lstat(abs);
  } catch (err) {
    if (isMissing(err)) return undefined;
    throw err;
  }
}

/** lstat of a file about to be written, or undefined; special and hard-linked files are refused. */
export async function statForWrite(abs: string, shown: string): Promise<Stats | undefined> {
  const stat = await statOrUndefined(abs);
  if (stat) assertPlainFile(stat, shown);
  return stat;
}

/** The whole current content of a file about to be rewritten (never through a symlink, never a pipe). */
export async function readCurrent(abs: string, shown: string, limit = MAX_EDIT_BYTES): Promise<Buffer> {
  const { fh, stat } = await openChecked(abs, shown);
  try {
    if (stat.isDirectory()) throw Object.assign(new Error(`EISDIR: ${abs} is a directory`), { code: 'EISDIR' });
    if (stat.size > limit) throw new FileTooLargeError(stat.size, limit);
    return await fh.readFile();
  } finally {
    await fh.close();
  }
}
