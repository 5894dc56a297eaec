// Runs the CLI's main() in this process with captured output, as a test reads a command's answer.
import { PassThrough, Readable } from 'node:stream';
import { main } from '../main.js';

export interface MainRun {
  code: number;
  out: string;
  err: string;
}

/** `argv` through main(), not interactive; `input` is what stdin holds. */
export async function runMain(argv: string[], input = ''): Promise<MainRun> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (d) => (out += d));
  stderr.on('data', (d) => (err += d));
  const code = await main(argv, { stdout, stderr, stdin: Readable.from([input]), interactive: false });
  return { code, out, err };
}
