// A stdio server's stderr, line by line: each line to the log, the last few kept so a failure can
// say what the server said before it died.
import type { Readable } from 'node:stream';

const KEEP = 20;
const MAX_LINE = 500;

export class StderrTail {
  private readonly lines: string[] = [];

  constructor(private readonly log?: (line: string) => void) {}

  /** Starts reading a new process's stderr; forgets the previous process's lines. */
  follow(stream: Readable | null): void {
    this.lines.length = 0;
    if (!stream) return;
    let partial = '';
    stream.on('data', (chunk: Buffer) => {
      const lines = (partial + chunk.toString('utf8')).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) this.add(line);
    });
    stream.on('end', () => partial && this.add(partial));
  }

  /** "; its stderr ends: a | b | c", or nothing when it said nothing. */
  note(): string {
    const last = this.lines.slice(-3).join(' | ');
    return last ? `; its stderr ends: ${last}` : '';
  }

  private add(line: string): void {
    const text = line.replace(/\r$/, '');
    if (!text.trim()) return;
    this.lines.push(text.length > MAX_LINE ? `${text.slice(0, MAX_LINE)}...` : text);
    if (this.lines.length > KEEP) this.lines.shift();
    this.log?.(`stderr: ${text}`);
  }
}
