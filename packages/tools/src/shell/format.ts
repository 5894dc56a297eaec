// How a finished command reads to the model: stdout, stderr, and one status line that says how
// it ended and what to do about it.
import type { RunResult } from '../process/run.js';

export interface FormatOptions {
  timeoutMs: number;
  maxTimeoutMs: number;
  killGraceMs: number;
}

const SIGNAL_HINTS: Record<string, string> = {
  SIGXCPU: ' (the CPU time limit was reached)',
  SIGKILL: '',
  SIGSEGV: ' (segmentation fault)',
};

function statusLine(r: RunResult, o: FormatOptions): string {
  if (r.timedOut) {
    return `[timed out after ${o.timeoutMs} ms: the whole process group was stopped (SIGTERM, then SIGKILL after ${o.killGraceMs} ms); the output above is partial. Retry with a larger timeout_ms (at most ${o.maxTimeoutMs}), or start it with shell_background and read it with shell_job.]`;
  }
  if (r.aborted) return '[cancelled: the whole process group was stopped; the output above is partial]';
  if (r.signal) return `[killed by ${r.signal}${SIGNAL_HINTS[r.signal] ?? ''}]`;
  return `[exit code ${r.exitCode ?? 'unknown'}]`;
}

export function formatRun(r: RunResult, o: FormatOptions): string {
  const parts: string[] = [];
  const out = r.stdout.text.replace(/\n$/, '');
  const err = r.stderr.text.replace(/\n$/, '');
  if (out) parts.push(out);
  if (err) parts.push(`[stderr]\n${err}`);
  if (!out && !err) parts.push('(no output)');
  parts.push(statusLine(r, o));
  const saved = savedNote(r);
  if (saved) parts.push(saved);
  if (r.leftovers)
    parts.push(
      '[note: processes it left running in the background were stopped; use shell_background for servers and watchers]',
    );
  return parts.join('\n');
}

/** Where the whole output went, and how to look into it, when the text above was cut. */
function savedNote(r: RunResult): string | undefined {
  const files: string[] = [];
  const problems: string[] = [];
  for (const [name, t] of [
    ['stdout', r.stdout],
    ['stderr', r.stderr],
  ] as const) {
    const f = t.file;
    if (!f) continue;
    if (f.bytes > 0)
      files.push(
        `${name} ${f.bytes === t.totalBytes ? 'in full' : `(the first ${f.bytes.toLocaleString('en-US')} bytes)`} in ${f.path}`,
      );
    if (f.error) problems.push(`saving ${name} stopped: ${f.error}`);
  }
  if (!files.length && !problems.length) return undefined;
  const where = files.length
    ? `the output above was cut; saved: ${files.join(', ')}. Search it with shell_exec (grep -n PATTERN FILE, sed -n 'FROM,TOp' FILE); it is deleted when toolbelt closes`
    : '';
  return `[${[where, ...problems].filter(Boolean).join('; ')}]`;
}

export function runMetadata(r: RunResult, cwd: string): Record<string, unknown> {
  return {
    exitCode: r.exitCode,
    signal: r.signal,
    timedOut: r.timedOut,
    cwd,
    stdoutBytes: r.stdout.totalBytes,
    stderrBytes: r.stderr.totalBytes,
    ...(r.stdout.omittedBytes || r.stderr.omittedBytes ? { outputTruncated: true } : {}),
    ...(r.stdout.file?.bytes ? { stdoutFile: r.stdout.file.path } : {}),
    ...(r.stderr.file?.bytes ? { stderrFile: r.stderr.file.path } : {}),
    ...(r.leftovers ? { backgroundStopped: true } : {}),
    durationMs: Math.round(r.durationMs),
  };
}
