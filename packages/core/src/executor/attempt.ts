// Running one tool body: a timeout and an AbortSignal that really end the call, and retries of
// recoverable failures with jittered exponential backoff.
import { ToolError, type RetryOptions } from '../tool.js';
import type { ToolErrorCode } from '../result.js';

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

export function toFailure(err: unknown, tool: string, signal: AbortSignal): Failure {
  if (err instanceof ToolError) return { code: err.code, message: err.message, recoverable: err.recoverable };
  const reason = signal.aborted ? signal.reason : undefined;
  if (reason instanceof TimeoutReason || err instanceof TimeoutReason) {
    const ms = (reason instanceof TimeoutReason ? reason : (err as TimeoutReason)).ms;
    return { code: 'TIMEOUT', message: `${tool} timed out after ${ms} ms and was stopped. Retry with a longer timeout, or do less per call.`, recoverable: true };
  }
  if (signal.aborted) return { code: 'ABORTED', message: `${tool} was cancelled before it finished.`, recoverable: false };
  const nodeCode = (err as { code?: unknown })?.code;
  if (typeof nodeCode === 'string' && NODE_CODES[nodeCode]) {
    return { code: NODE_CODES[nodeCode], message: (err as Error).message, recoverable: false };
  }
  const message = err instanceof Error ? err.message : String(err);
  return { code: 'EXECUTION_FAILED', message: `${tool} failed: ${message}`, recoverable: false };
}

const noop = () => {};

/**
 * Runs `body` until it settles, the timeout fires or `signal` aborts — whichever comes first.
 * A body that ignores its signal keeps running in the background, but its result is discarded.
 */
export function runWithDeadline<T>(body: (signal: AbortSignal) => Promise<T> | T, timeoutMs: number, outer: AbortSignal | undefined): { promise: Promise<T>; controller: AbortController } {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  let onOuterAbort: (() => void) | undefined;
  const promise = new Promise<T>((resolve, reject) => {
    const stop = () => reject(controller.signal.reason);
    controller.signal.addEventListener('abort', stop, { once: true });
    if (outer) {
      if (outer.aborted) controller.abort(outer.reason);
      else {
        onOuterAbort = () => controller.abort(outer.reason);
        outer.addEventListener('abort', onOuterAbort, { once: true });
      }
    }
    if (timeoutMs > 0 && Number.isFinite(timeoutMs)) timer = setTimeout(() => controller.abort(new TimeoutReason(timeoutMs)), timeoutMs);
    if (controller.signal.aborted) return;
    try {
      const out = body(controller.signal);
      if (out instanceof Promise) out.then(resolve, reject);
      else resolve(out);
    } catch (err) {
      reject(err);
    }
  });
  const cleanup = () => {
    if (timer) clearTimeout(timer);
    if (onOuterAbort) outer!.removeEventListener('abort', onOuterAbort);
  };
  promise.then(cleanup, cleanup);
  promise.catch(noop);
  return { promise, controller };
}

export function backoffDelay(attempt: number, baseMs: number): number {
  const exp = baseMs * 2 ** attempt;
  return exp / 2 + Math.random() * (exp / 2);
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const t = setTimeout(done, ms);
    function done() {
      clearTimeout(t);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}

export function retryAttempts(retry: RetryOptions | undefined): number {
  return Math.max(0, Math.min(3, retry?.attempts ?? 0));
}
