// Running one tool body: a timeout and an AbortSignal that really end the call, and retries of
// recoverable failures with jittered exponential backoff.
import { ToolError, type RetryOptions } from '../tool.js';
import type { ToolErrorCode } from '../result.js';
import { schedule, type TimerHandle } from './timers.js';

/** The abort reason we use for timeouts, so we can tell a timeout from a cancellation. */
export class TimeoutReason {
  constructor(readonly ms: number) {}
}

export interface Failure {
  code: ToolErrorCode;
  message: string;
  recoverable: boolean;
}

const NODE_CODES: Record<string, ToolErrorCode> = {
  ENOENT: 'NOT_FOUND',
  ENOTDIR: 'NOT_FOUND',
  EACCES: 'PERMISSION_DENIED',
  EPERM: 'PERMISSION_DENIED',
  EEXIST: 'CONFLICT',
};

/** `stopped` is the reason the whole call was aborted, when it was. */
export function toFailure(err: unknown, tool: string, stopped?: unknown): Failure {
  if (err instanceof TimeoutReason) {
    return {
      code: 'TIMEOUT',
      message: `${tool} timed out after ${err.ms} ms and was stopped. Retry with a longer timeout, or do less per call.`,
      recoverable: true,
    };
  }
  if (stopped !== undefined)
    return { code: 'ABORTED', message: `${tool} was cancelled before it finished.`, recoverable: false };
  if (err instanceof ToolError) return { code: err.code, message: err.message, recoverable: err.recoverable };
  const nodeCode = (err as { code?: unknown })?.code;
  if (typeof nodeCode === 'string' && NODE_CODES[nodeCode]) {
    return { code: NODE_CODES[nodeCode], message: (err as Error).message, recoverable: false };
  }
  const message = describeError(err);
  return { code: 'EXECUTION_FAILED', message: `${tool} failed: ${message}`, recoverable: false };
}

/**
 * One call's cancellation: an AbortController per attempt, a timeout per attempt, and an abort
 * for the whole call (caller's signal, executor close). Each race settles the moment any of them
 * fires; a body that ignores its signal keeps running, but its result is discarded.
 * No EventTarget listeners on the hot path: they cost microseconds per call.
 */
export class Deadline {
  /** Why the whole call was stopped, once it was. */
  stopped: unknown;
  // Created on first use of `signal`: an AbortSignal costs more than the rest of a call.
  private controller: AbortController | undefined;
  private attemptReason: unknown;
  private rejectCurrent: ((reason: unknown) => void) | undefined;

  /** The current attempt's signal; aborted if the attempt already was. */
  get signal(): AbortSignal {
    if (!this.controller) {
      this.controller = new AbortController();
      if (this.attemptReason !== undefined) this.controller.abort(this.attemptReason);
    }
    return this.controller.signal;
  }

  abort(reason: unknown): void {
    if (this.stopped !== undefined) return;
    this.stopped = reason ?? new Error('aborted');
    this.abortAttempt(this.stopped);
    this.rejectCurrent?.(this.stopped);
  }

  /**
   * Runs one attempt. A body that answers synchronously gets its value back as is — no promise,
   * no timer; it throws as it threw. Otherwise the race is on: result, timeout or abort.
   */
  run<T>(body: () => Promise<T> | T, timeoutMs: number): Promise<T> | T {
    // After a timed-out attempt the old signal stays aborted; a retry gets a fresh one.
    if (this.attemptReason !== undefined && this.stopped === undefined) {
      this.attemptReason = undefined;
      this.controller = undefined;
    }
    if (this.stopped !== undefined) return Promise.reject(this.stopped);
    const out = body();
    if (!isThenable(out)) return out;
    return new Promise<T>((resolve, reject) => {
      let timer: TimerHandle | undefined;
      let settled = false;
      const settle = (ok: boolean, value: unknown) => {
        if (settled) return;
        settled = true;
        timer?.cancel();
        this.rejectCurrent = undefined;
        if (ok) resolve(value as T);
        else reject(value);
      };
      this.rejectCurrent = (reason) => settle(false, reason);
      // The body itself may have led to a stop (an approver that hears its caller hang up while it
      // asks): nothing would reject this race later, so settle it now.
      if (this.stopped !== undefined) return settle(false, this.stopped);
      if (timeoutMs > 0 && Number.isFinite(timeoutMs)) {
        timer = schedule(timeoutMs, () => {
          const reason = new TimeoutReason(timeoutMs);
          this.abortAttempt(reason);
          settle(false, reason);
        });
      }
      out.then(
        (v) => settle(true, v),
        (e) => settle(false, e),
      );
    });
  }

  /**
   * Waits `ms` between attempts: true when the wait is over, false at once if the call is stopped
   * meanwhile (the timer cleared). The timer is not unref'd: a pending retry keeps the process
   * alive, so a short script awaiting the call sees it settle instead of exiting early.
   */
  pause(ms: number): Promise<boolean> {
    if (this.stopped !== undefined) return Promise.resolve(false);
    return new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => {
        this.rejectCurrent = undefined;
        resolve(true);
      }, ms);
      this.rejectCurrent = () => {
        clearTimeout(timer);
        this.rejectCurrent = undefined;
        resolve(false);
      };
    });
  }

  private abortAttempt(reason: unknown): void {
    this.attemptReason = reason;
    this.controller?.abort(reason);
  }
}

function isThenable<T>(value: unknown): value is PromiseLike<T> {
  return (
    value !== null &&
    (typeof value === 'object' || typeof value === 'function') &&
    typeof (value as PromiseLike<T>).then === 'function'
  );
}

export function backoffDelay(attempt: number, baseMs: number): number {
  const exp = baseMs * 2 ** attempt;
  return exp / 2 + Math.random() * (exp / 2);
}

export function retryAttempts(retry: RetryOptions | undefined): number {
  return Math.max(0, Math.min(3, retry?.attempts ?? 0));
}

/** Text for anything thrown; never throws itself (a thrown object may lack toString). */
export function describeError(err: unknown): string {
  if (err instanceof Error) return err.message;
  if (typeof err === 'string') return err;
  try {
    return JSON.stringify(err) ?? String(err);
  } catch {
    return `a thrown ${typeof err}`;
  }
}
