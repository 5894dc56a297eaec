// One line reader on the terminal for every question toolbelt asks there (approvals, a server's
// questions): one question at a time even when calls run in parallel, typed-ahead lines kept.
import { createInterface } from 'node:readline';

export class TerminalPrompt {
  // Opened at the first question: a run that asks nothing never holds stdin open.
  private rl: ReturnType<typeof createInterface> | undefined;
  private lines: AsyncIterator<string> | undefined;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly input: NodeJS.ReadableStream,
    readonly output: NodeJS.WritableStream,
  ) {}

  /** Writes `question` and reads one line; undefined once the input has ended. */
  async ask(question: string): Promise<string | undefined> {
    this.output.write(question);
    if (!this.rl) {
      this.rl = createInterface({ input: this.input, terminal: false });
      this.lines = this.rl[Symbol.asyncIterator]();
    }
    const next = await this.lines!.next();
    return next.done ? undefined : String(next.value).trim();
  }

  /** Told when a dialog starts and ends, so whatever else draws on the terminal (a spinner) keeps off it. */
  onDialog: ((open: boolean) => void) | undefined;

  /** Runs one dialog after the ones before it have finished. */
  serial<T>(dialog: () => Promise<T>): Promise<T> {
    const next = this.queue.then(async () => {
      this.onDialog?.(true);
      try {
        return await dialog();
      } finally {
        this.onDialog?.(false);
      }
    });
    this.queue = next.catch(() => undefined);
    return next;
  }

  close(): void {
    this.rl?.close();
  }
}
