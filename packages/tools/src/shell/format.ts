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

export function statusLine(r: RunResult, o: FormatOptions): string {
  if (r.timedOut) {
    return `[timed out after ${o.timeoutMs} ms: the whole process group was stopped (SIGTERM, then SIGKILL after ${o.killGraceMs} ms); the output above is partial. Retry with a larger timeout_ms (at most ${o.maxTimeoutMs}), or start it with shell_background and read it with shell_output.]`;
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
  if (r.leftovers) parts.push('[note: processes it left running in the background were stopped; use shell_background for servers and watchers]');
  return parts.join('\n');
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
    ...(r.leftovers ? { backgroundStopped: true } : {}),
    durationMs: Math.round(r.durationMs),
  };
}
