// A one-line spinner with the elapsed time, on a terminal's stderr, for a call still running after
// a second (a language server's cold start, a big search): it says the call is alive, not stuck.
// It draws only while nothing else writes: output and prompts pause it.
const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

export interface SpinnerOptions {
  /** How long a quiet call waits before the spinner shows. Default 1000 ms. */
  delayMs?: number;
  now?: () => number;
}

export class Spinner {
  private readonly started: number;
  private readonly delayMs: number;
  private readonly now: () => number;
  private timer: NodeJS.Timeout | undefined;
  private quietSince: number;
  private paused = false;
  private shown = false;
  private frame = 0;
  private note = '';

  constructor(
    private readonly out: NodeJS.WritableStream,
    private readonly label: string,
    opts: SpinnerOptions = {},
  ) {
    this.now = opts.now ?? Date.now;
    this.delayMs = opts.delayMs ?? 1000;
    this.started = this.now();
    this.quietSince = this.started;
    this.timer = setInterval(() => this.tick(), 100);
    this.timer.unref();
  }

  /** Before anything else writes to the terminal: clears the spinner and restarts the quiet time. */
  clear(): void {
    if (this.shown) this.out.write('\r\x1b[K');
    this.shown = false;
    this.quietSince = this.now();
  }

  /** What the call last said of its progress, shown after the time ("120 files so far"). */
  detail(note: string | undefined): void {
    this.note = note ? ` · ${note.length > 60 ? `${note.slice(0, 59)}…` : note}` : '';
  }

  /** While a person answers a prompt, the spinner stays off. */
  pause(paused: boolean): void {
    this.paused = paused;
    this.clear();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
    this.clear();
  }

  private tick(): void {
    if (this.paused || this.now() - this.quietSince < this.delayMs) return;
    const seconds = ((this.now() - this.started) / 1000).toFixed(1);
    this.out.write(`\r\x1b[K${FRAMES[this.frame++ % FRAMES.length]} ${this.label} ${seconds}s${this.note}`);
    this.shown = true;
  }
}
