// Opening files the guard has resolved. The guard returns real paths, so the last component is
// never a symlink; O_NOFOLLOW makes sure one swapped in after the check is refused, not followed.
import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';

const NOFOLLOW = constants.O_NOFOLLOW ?? 0;

/** Opens a resolved path for reading without following a symlink at its last component. */
export function openNoFollow(path: string): Promise<FileHandle> {
  return open(path, constants.O_RDONLY | NOFOLLOW);
}

export class FileTooLargeError extends Error {
  constructor(readonly size: number, readonly limit: number) {
    super(`file is ${size} bytes, over the ${limit}-byte limit`);
  }
}

/** Reads a whole regular file (refusing symlinks and files over maxBytes); returns its stats too. */
export async function readWhole(path: string, maxBytes = Number.MAX_SAFE_INTEGER): Promise<{ data: Buffer; stat: Stats }> {
  const fh = await openNoFollow(path);
  try {
    const stat = await fh.stat();
    if (stat.isDirectory()) throw Object.assign(new Error(`EISDIR: ${path} is a directory`), { code: 'EISDIR' });
    if (stat.size > maxBytes) throw new FileTooLargeError(stat.size, maxBytes);
    return { data: await fh.readFile(), stat };
  } finally {
    await fh.close();
  }
}

/** Reads up to `length` bytes from the start of an open file. */
export async function readHead(fh: FileHandle, length: number): Promise<Buffer> {
  const buf = Buffer.allocUnsafe(length);
  const { bytesRead } = await fh.read(buf, 0, length, 0);
  return buf.subarray(0, bytesRead);
}

/**
 * A small regular file read in one go with synchronous calls: on a local disk that takes a few
 * microseconds, while the four thread-pool hops of open/stat/read/close cost far more. Anything
 * else (large, not a regular file) returns undefined for the streaming path to handle.
 */
export function readSmallSync(path: string, maxBytes: number): { data: Buffer; stat: Stats } | undefined {
  const fd = openSync(path, constants.O_RDONLY | NOFOLLOW);
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile() || stat.size > maxBytes) return undefined;
    const buf = Buffer.allocUnsafe(stat.size);
    let got = 0;
    while (got < stat.size) {
      const n = readSync(fd, buf, got, stat.size - got, got);
      if (n === 0) break;
      got += n;
    }
    return { data: buf.subarray(0, got), stat };
  } finally {
    closeSync(fd);
  }
}
