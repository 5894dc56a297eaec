// The whole of a stream that outgrows what the result keeps. The result holds the head and the
// tail (head-tail.ts); once a stream would lose bytes, all of it, from the first byte, also goes
// to a file, so the model can search what the result leaves out. Written synchronously as chunks
// arrive: the page cache takes them at memory speed, nothing piles up in the process (the pipe
// waits instead), and no chunk can be lost to the drain timeout after the command exits.
import { closeSync, openSync, writeSync } from 'node:fs';
import type { HeadTailBuffer, SavedOutput } from './head-tail.js';

export interface SpillTarget {
  /** A new file's path; asked once, when the stream first outgrows its buffer. */
  path(): string;
  /** Most bytes a file takes; past that only the in-memory tail follows the stream. */
  maxBytes: number;
}

const message = (err: unknown) => (err instanceof Error ? err.message : String(err));

export class Spill {
  private fd: number | undefined;
  private saved: SavedOutput | undefined;

  constructor(
    private readonly buf: HeadTailBuffer,
    private readonly target: SpillTarget,
  ) {}

  /** Takes a chunk into the buffer, and into the file once the buffer alone would drop bytes. */
  push(chunk: Uint8Array): void {
    if (!this.saved && this.buf.totalBytes + chunk.length > this.buf.maxBytes) this.open();
    if (this.fd !== undefined) this.write(chunk);
    this.buf.push(chunk);
  }

  /** Closes the file; what it holds, if one was started. */
  finish(): SavedOutput | undefined {
    this.close();
    return this.saved;
  }

  private open(): void {
    this.saved = { path: '', bytes: 0 };
    try {
      this.saved.path = this.target.path();
      // 'wx': a fresh file only, never one that something else put there.
      this.fd = openSync(this.saved.path, 'wx', 0o600);
    } catch (err) {
      this.saved.error = message(err);
      return;
    }
    this.write(this.buf.contents());
  }

  private write(data: Uint8Array): void {
    const saved = this.saved!;
    const room = this.target.maxBytes - saved.bytes;
    const part = data.length > room ? data.subarray(0, room) : data;
    try {
      for (let off = 0; off < part.length;) off += writeSync(this.fd!, part, off);
      saved.bytes += part.length;
    } catch (err) {
      saved.error = message(err);
      this.close();
      return;
    }
    if (saved.bytes >= this.target.maxBytes) this.close();
  }

  private close(): void {
    if (this.fd === undefined) return;
    try {
      closeSync(this.fd);
    } catch {
      // Nothing more to lose: every byte was written synchronously.
    }
    this.fd = undefined;
  }
}
