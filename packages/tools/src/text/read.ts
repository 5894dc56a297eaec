// Reading files that workspace/special.ts opened (non-blocking, no final symlink, checked by fstat).
import { readSync } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';

export class FileTooLargeError extends Error {
  constructor(
    readonly size: number,
    readonly limit: number,
  ) {
    super(`file is ${size} bytes, over the ${limit}-byte limit`);
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
 * microseconds, while the thread-pool hops of asynchronous reads cost far more.
 */
export function readAllSync(fd: number, size: number): Buffer {
  const buf = Buffer.allocUnsafe(size);
  let got = 0;
  while (got < size) {
    const n = readSync(fd, buf, got, size - got, got);
    if (n === 0) break;
    got += n;
  }
  return buf.subarray(0, got);
}
