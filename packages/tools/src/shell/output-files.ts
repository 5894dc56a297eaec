// Where shell_exec saves the whole output of a command whose result had to be cut: a private
// directory (mode 0700) under the OS temp dir, made on first use, since output may hold secrets
// and the workspace is no place for them. The newest files are kept for the model to search; the
// directory goes when the shell tools are disposed (the executor closes) or the process exits.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Files kept per set of shell tools; older ones are deleted as new ones come. */
export const KEEP_OUTPUT_FILES = 20;

const liveDirs = new Set<string>();
let exitHookInstalled = false;

function removeAtExit(dir: string): void {
  liveDirs.add(dir);
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const d of liveDirs) rmSync(d, { recursive: true, force: true });
  });
}

export class OutputFiles {
  private dir: string | undefined;
  private readonly files: string[] = [];
  private count = 0;

  /** `maxBytes` 0 saves nothing. */
  constructor(readonly maxBytes: number) {}

  /** What runCommand needs to save a stream; undefined when saving is off. */
  get target(): { path(stream: string): string; maxBytes: number } | undefined {
    if (this.maxBytes <= 0) return undefined;
    return { path: (stream) => this.next(stream), maxBytes: this.maxBytes };
  }

  /** The directory, once a file has been saved. */
  get directory(): string | undefined {
    return this.dir;
  }

  private next(stream: string): string {
    if (!this.dir) {
      this.dir = mkdtempSync(join(tmpdir(), 'toolbelt-output-'));
      removeAtExit(this.dir);
    }
    const path = join(this.dir, `${++this.count}-${stream}.log`);
    this.files.push(path);
    while (this.files.length > KEEP_OUTPUT_FILES) rmSync(this.files.shift()!, { force: true });
    return path;
  }

  removeAll(): void {
    if (!this.dir) return;
    rmSync(this.dir, { recursive: true, force: true });
    liveDirs.delete(this.dir);
    this.dir = undefined;
    this.files.length = 0;
  }
}
