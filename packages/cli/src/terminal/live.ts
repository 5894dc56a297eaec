// One call as a person watches it in a terminal: a command's output as it comes (not all at the
// end), a spinner while nothing shows, paused while the approval prompt waits for an answer.
import type { EventBus } from '@toolbelt/core';
import { Spinner } from './spinner.js';
import type { Style } from './style.js';

export interface LiveOptions {
  callId: string;
  tool: string;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  /** Write output chunks as they arrive (stdout is a terminal). */
  stream: boolean;
  /** Show the spinner on stderr (stderr is a terminal). */
  spinner: boolean;
}

export class LiveCall {
  private readonly off: () => void;
  private readonly spinner: Spinner | undefined;
  private streamed = false;
  private openLine = false;

  constructor(events: EventBus, opts: LiveOptions) {
    this.spinner = opts.spinner ? new Spinner(opts.stderr, opts.tool) : undefined;
    this.off = events.on((e) => {
      if (!('callId' in e) || e.callId !== opts.callId) return;
      if (e.type === 'approval.requested') this.spinner?.pause(true);
      else if (e.type === 'approval.resolved') this.spinner?.pause(false);
      else if (e.type === 'tool.output' && opts.stream) {
        this.spinner?.clear();
        (e.stream === 'stdout' ? opts.stdout : opts.stderr).write(e.chunk);
        this.streamed = true;
        this.openLine = !e.chunk.endsWith('\n');
      } else if (e.type === 'tool.progress') this.spinner?.detail(e.message);
    });
  }

  /** While a person answers a question (an approval, a tool's question), the spinner stays off. */
  pause(paused: boolean): void {
    this.spinner?.pause(paused);
  }

  /** Stops watching and clears the spinner: call before printing the result. */
  stop(): void {
    this.off();
    this.spinner?.stop();
  }

  /** The result's text still to print: all of it, or after live output only its closing notes. */
  remainder(text: string): string {
    if (!this.streamed) return text;
    return `${this.openLine ? '\n' : ''}${closingNotes(text)}`;
  }
}

/**
 * The bracketed lines a command's result ends with (`[exit code 1]`, `[sandbox: ...]`): what the
 * live output did not already show.
 */
export function closingNotes(text: string): string {
  const lines = text.split('\n');
  let i = lines.length;
  while (i > 0 && /^\[.*\]$/.test(lines[i - 1]!)) i--;
  return lines.slice(i).join('\n');
}

/** Closing notes in colour: a clean exit dim, a failed or stopped command red, other notes dim. */
export function styleNotes(text: string, style: Style): string {
  return text
    .split('\n')
    .map((line) => {
      if (!/^\[.*\]$/.test(line)) return line;
      return /^\[(exit code [1-9]|killed by|timed out|cancelled)/.test(line) ? style.red(line) : style.dim(line);
    })
    .join('\n');
}
