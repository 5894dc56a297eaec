// A fixed-size ring of the most recent bytes, addressed by absolute offsets so several readers can
// ask for "everything since offset N" and learn how much fell out of the ring in between.

export class ByteRing {
  // Allocated on the first write.
  private store: Buffer | undefined;
  private written = 0;

  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity <= 0)
      throw new RangeError(`ring capacity must be a positive integer, not ${capacity}`);
  }

  private get buf(): Buffer {
    return (this.store ??= Buffer.allocUnsafe(this.capacity));
  }

  /** Bytes ever written. */
  get total(): number {
    return this.written;
  }

  /** Absolute offset of the oldest byte still held. */
  get start(): number {
    return Math.max(0, this.written - this.capacity);
  }

  write(chunk: Uint8Array): void {
    const cap = this.capacity;
    const len = chunk.length;
    if (len === 0) return;
    if (len >= cap) {
      // Byte at absolute offset o always lives at o % cap.
      const tail = chunk.subarray(len - cap);
      const shift = (this.written + len) % cap;
      this.buf.set(tail.subarray(0, cap - shift), shift);
      this.buf.set(tail.subarray(cap - shift), 0);
      this.written += len;
      return;
    }
    const pos = this.written % cap;
    const first = Math.min(cap - pos, len);
    this.buf.set(chunk.subarray(0, first), pos);
    if (first < len) this.buf.set(chunk.subarray(first), 0);
    this.written += len;
  }

  /**
   * The bytes from absolute offset `from` (clamped to what is still held) to the end, as a copy.
   * `dropped` is how many bytes after `from` were overwritten before this read.
   */
  readFrom(from: number): { data: Buffer; dropped: number; start: number } {
    const start = Math.max(from, this.start);
    const dropped = Math.max(0, start - Math.max(0, from));
    const len = this.written - start;
    if (len <= 0) return { data: Buffer.alloc(0), dropped, start };
    const cap = this.capacity;
    const pos = start % cap;
    if (pos + len <= cap) return { data: Buffer.from(this.buf.subarray(pos, pos + len)), dropped, start };
    return { data: Buffer.concat([this.buf.subarray(pos), this.buf.subarray(0, len - (cap - pos))]), dropped, start };
  }
}
