// The stdio server's input, one JSON-RPC message per line, with a size limit per line: a line over
// the limit is dropped (its bytes are never held) and answered with an error for its id, and the
// next line is served as usual. Without it the SDK's reader closes the whole session on a large
// request, and the client waits forever.
import { Transform, type TransformCallback } from 'node:stream';

/** The largest request line served: the SDK reader's own limit. */
export const MAX_LINE_BYTES = 10 * 1024 * 1024;
/** How much of a refused line is kept to find its id. */
const HEAD_BYTES = 4096;

/** The JSON-RPC id at the start of a line, when it is there to be read. */
export function idOf(head: string): string | number | null {
  const m = /"id"\s*:\s*("(?:[^"\\]|\\.)*"|-?\d+)/.exec(head);
  if (!m) return null;
  return m[1].startsWith('"') ? (JSON.parse(m[1]) as string) : Number(m[1]);
}

/** The answer to a request line over the limit. */
export function tooLargeAnswer(id: string | number | null, max: number): string {
  const message = `request too large: a message is limited to ${max} bytes; send less (a path instead of file contents)`;
  return `${JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32600, message } })}\n`;
}

export class LineLimit extends Transform {
  private parts: Buffer[] = [];
  private size = 0;
  private head: Buffer | undefined;

  constructor(
    /** Told the id of each line refused for its size. */
    private readonly refuse: (id: string | number | null) => void,
    private readonly max = MAX_LINE_BYTES,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    let start = 0;
    while (start < chunk.length) {
      const nl = chunk.indexOf(10, start);
      const end = nl === -1 ? chunk.length : nl + 1;
      this.keep(chunk.subarray(start, end));
      if (nl !== -1) this.endLine();
      start = end;
    }
    done();
  }

  /** A piece of the current line: kept while the line is within the limit, else only its head. */
  private keep(piece: Buffer): void {
    this.size += piece.length;
    if (this.head) return;
    if (this.size <= this.max + 1) {
      this.parts.push(piece);
      return;
    }
    this.head = Buffer.concat([...this.parts, piece]).subarray(0, HEAD_BYTES);
    this.parts = [];
  }

  private endLine(): void {
    if (this.head) this.refuse(idOf(this.head.toString('utf8')));
    else this.push(Buffer.concat(this.parts));
    this.parts = [];
    this.size = 0;
    this.head = undefined;
  }
}
