// Small pure pieces of a call: ids, names and inputs from untrusted callers, what "always" remembers.
import { randomBytes } from 'node:crypto';
import type { RememberTarget } from '../approval.js';
import type { Classification, Effect } from '../tool.js';
import { shapeProblem } from '../input-shape.js';

export const STATIC_CLASSIFICATION: Record<Effect, Classification> = {
  read: Object.freeze({ effect: 'read' }),
  write: Object.freeze({ effect: 'write' }),
  execute: Object.freeze({ effect: 'execute' }),
  destructive: Object.freeze({ effect: 'destructive' }),
};

// A random per-process prefix and a counter: unique across processes and restarts, and far
// cheaper than a UUID per call.
const ID_PREFIX = `tc_${randomBytes(6).toString('base64url')}`;
let idCounter = 0;
export function newCallId(): string {
  return `${ID_PREFIX}${(++idCounter).toString(36)}`;
}

/** What "always approve" remembers for this call. */
export function rememberTarget(tool: string, c: Classification): RememberTarget {
  if (c.rememberPrefix) return { kind: 'prefix', tool, prefix: c.rememberPrefix };
  if (c.subject?.commands?.length)
    return { kind: 'exact', tool, command: c.subject.command ?? c.subject.commands.join(' && ') };
  return { kind: 'tool', tool };
}

/** A tool name from untrusted input, as text; never throws (objects may lack toString). */
export function toolName(raw: unknown): string {
  if (typeof raw === 'string') return raw;
  try {
    return JSON.stringify(raw) ?? typeof raw;
  } catch {
    return `[${typeof raw}]`;
  }
}

/** Models sometimes send the arguments as a JSON string; accept that, and nothing looser. */
function coerceInput(raw: unknown): unknown {
  if (typeof raw === 'string') {
    const t = raw.trim();
    if (t.startsWith('{')) {
      try {
        return JSON.parse(t);
      } catch {
        return raw;
      }
    }
  }
  return raw ?? {};
}

/**
 * The input as a value, or why it is refused before any schema sees it: nested too deep or too
 * large for validation, logging and hashing to walk (a JSON string is judged before and after it
 * is parsed).
 */
export function admitInput(raw: unknown): { ok: true; value: unknown } | { ok: false; problem: string } {
  let problem = shapeProblem(raw);
  if (problem) return { ok: false, problem };
  const value = coerceInput(raw);
  if (value !== raw && typeof raw === 'string') problem = shapeProblem(value);
  return problem ? { ok: false, problem } : { ok: true, value };
}

/** What the execution log keeps of an input refused for its shape: it could not be serialized. */
export const REFUSED_INPUT = '[input refused: too deep or too large to keep]';
