// Runs one bash script to completion: bounded output, streaming, a timeout and an AbortSignal that
// stop the whole process group, and no wait on background children that keep the pipes open.
import { StringDecoder } from 'node:string_decoder';
import type { Readable } from 'node:stream';
import { ProcessGroup } from './group.js';
import { HeadTailBuffer, type BufferedText } from './head-tail.js';
import { bashInvocation, type Invocation, type ResourceLimits } from './limits.js';
import { Spill } from './spill.js';

type StreamName = 'stdout' | 'stderr';

export interface RunOptions {
  script: string;
  cwd: string;
  env?: NodeJS.ProcessEnv;
  limits?: ResourceLimits;
  /** Runs the bash invocation inside something else (the sandbox). */
  wrap?: (inv: Invocation) => Invocation;
  timeoutMs: number;
  signal?: AbortSignal;
  /** Per stream: bytes kept as head + tail. */
  maxBytes: number;
  /** Where a stream that outgrows maxBytes is saved whole; kept in memory only when absent. */
  spill?: { path(stream: StreamName): string; maxBytes: number };
  /** Between SIGTERM and SIGKILL. */
  killGraceMs: number;
  /** How long to keep reading the pipes after bash exits, for output still in flight. */
  drainMs?: number;
  onOutput?(stream: StreamName, text: string): void;
}

export interface RunResult {
  stdout: BufferedText;
  stderr: BufferedText;
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  aborted: boolean;
  durationMs: number;
  pid: number | undefined;
  /** The process never started (cwd missing, bash missing). */
  spawnError?: Error;
  /** Processes the command left running after it exited; they were stopped. */
  leftovers: boolean;
}

const DEFAULT_DRAIN_MS = 100;

type RunState = Pick<RunResult, 'timedOut' | 'aborted' | 'leftovers'>;

/** The result of a command that never ran to an exit: aborted before it started, or never spawned. */
function notRun(state: RunState, out: HeadTailBuffer, err: HeadTailBuffer, durationMs: number): RunResult {
  return { ...state, stdout: out.read(), stderr: err.read(), exitCode: null, signal: null, durationMs, pid: undefined };
}

export async function runCommand(opts: RunOptions): Promise<RunResult> {
  const started = performance.now();
  const out = new HeadTailBuffer(opts.maxBytes);
  const err = new HeadTailBuffer(opts.maxBytes);
  const base = { timedOut: false, aborted: false, leftovers: false };
  if (opts.signal?.aborted) return notRun({ ...base, aborted: true }, out, err, 0);

  const inv = bashInvocation(opts.script, opts.limits);
  const { file, args, sandboxed } = opts.wrap ? opts.wrap(inv) : inv;
  const group = ProcessGroup.spawn({ file, args, cwd: opts.cwd, env: opts.env, sandboxed });
  const child = group.child;
  const outSpill = spillOf(opts, 'stdout', out);
  const errSpill = spillOf(opts, 'stderr', err);
  const ended = [
    collect(child.stdout!, outSpill ?? out, 'stdout', opts.onOutput),
    collect(child.stderr!, errSpill ?? err, 'stderr', opts.onOutput),
  ];
  const state = { ...base };
  const stopper = stopOnTimeoutOrAbort(group, opts, state);

  try {
    const exit = await group.exited;
    stopper.release();
    if (exit.error) return { ...notRun(state, out, err, performance.now() - started), spawnError: exit.error };
    const stopping = stopper.stopping();
    if (stopping) await stopping;
    // In a sandbox nothing outlives the command: its pid namespace goes with it.
    else if (!sandboxed && group.alive()) {
      // The command is done but something it put in the background still runs. The call ends
      // now; the group is stopped behind it (SIGKILL on toolbelt's exit at the latest).
      state.leftovers = true;
      void group.terminate(opts.killGraceMs);
    }
    await drain(ended, [child.stdout!, child.stderr!], opts.drainMs ?? DEFAULT_DRAIN_MS);
    return {
      ...state,
      stdout: out.read(outSpill?.finish()),
      stderr: err.read(errSpill?.finish()),
      exitCode: exit.code,
      signal: exit.signal,
      durationMs: performance.now() - started,
      pid: group.pid,
    };
  } finally {
    stopper.release();
    outSpill?.finish();
    errSpill?.finish();
  }
}

/** The file a stream is saved whole to once it outgrows its buffer; none when the caller gave no spill. */
function spillOf(opts: RunOptions, stream: StreamName, buf: HeadTailBuffer): Spill | undefined {
  const s = opts.spill;
  return s && new Spill(buf, { path: () => s.path(stream), maxBytes: s.maxBytes });
}

/**
 * Stops the group once, on the timeout or the abort signal, whichever comes first, and marks
 * which in `state`. `release` disarms both; `stopping` is the stop under way, if any.
 */
function stopOnTimeoutOrAbort(group: ProcessGroup, opts: RunOptions, state: { timedOut: boolean; aborted: boolean }) {
  let stopping: Promise<void> | undefined;
  const stop = (why: 'timeout' | 'abort') => {
    if (stopping) return;
    if (why === 'timeout') state.timedOut = true;
    else state.aborted = true;
    stopping = group.terminate(opts.killGraceMs);
  };
  const timer = setTimeout(() => stop('timeout'), opts.timeoutMs);
  const onAbort = () => stop('abort');
  opts.signal?.addEventListener('abort', onAbort, { once: true });
  return {
    stopping: () => stopping,
    release: () => {
      clearTimeout(timer);
      opts.signal?.removeEventListener('abort', onAbort);
    },
  };
}

function collect(
  stream: Readable,
  buf: { push(chunk: Uint8Array): void },
  name: StreamName,
  onOutput: RunOptions['onOutput'],
): Promise<void> {
  const decoder = onOutput ? new StringDecoder('utf8') : undefined;
  stream.on('data', (chunk: Buffer) => {
    buf.push(chunk);
    if (decoder) {
      const text = decoder.write(chunk);
      if (text) onOutput!(name, text);
    }
  });
  return new Promise((resolve) => {
    stream.once('close', () => {
      const rest = decoder?.end();
      if (rest) onOutput!(name, rest);
      resolve();
    });
  });
}

/** Waits for both pipes to close, but no longer than `ms`; then lets go of them. */
async function drain(ended: Promise<void>[], streams: Readable[], ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)));
  await Promise.race([Promise.all(ended), late]);
  clearTimeout(timer);
  for (const s of streams) if (!s.destroyed) s.destroy();
}
