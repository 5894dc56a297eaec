// Shapes that more than one package's config section is built from, and the wording of their
// errors: every problem says what the value must be and what it was.
import { z } from 'zod';
import { EFFECTS, type Effect } from '../tool.js';

function shown(value: unknown): string {
  return JSON.stringify(value) ?? String(value);
}

/** A schema's error: `must be <what>, not <the value given>` (or `required: give <what>`). */
export function mustBe(what: string): { error: (issue: { input?: unknown }) => string } {
  return {
    error: (issue) =>
      issue.input === undefined ? `required: give ${what}` : `must be ${what}, not ${shown(issue.input)}`,
  };
}

export const positiveInt = () => z.number(mustBe('a positive integer')).int().positive();
export const atLeastZeroInt = () => z.number(mustBe('an integer of 0 or more')).int().min(0);
export const nonEmptyString = (what = 'a non-empty string') => z.string(mustBe(what)).min(1);
export const stringList = (what = 'a list of strings') => z.array(z.string(mustBe(what)), mustBe(what));

/** One of a fixed list of words, naming them all when the value is none of them. */
export function oneOf<const T extends readonly [string, ...string[]]>(values: T) {
  return z.enum(values, mustBe(`one of ${values.map((v) => `"${v}"`).join(', ')}`));
}

export const effectSchema = oneOf(EFFECTS as readonly Effect[] as [Effect, ...Effect[]]);

/** Retries of HTTP requests that failed for a passing reason (reset, 408, 429, 5xx); see net/retry.ts. */
export const httpRetrySchema = z.strictObject({
  attempts: z.number(mustBe('an integer from 0 to 3')).int().min(0).max(3).optional(),
  baseDelayMs: positiveInt().optional(),
  maxRetryAfterMs: atLeastZeroInt().optional(),
});

/** Resource limits (Linux rlimits), per process: `memoryMb` is address space, `dataMb` writable memory. */
export const resourceLimitsSchema = z.strictObject({
  cpuSeconds: positiveInt().optional(),
  memoryMb: positiveInt().optional(),
  dataMb: positiveInt().optional(),
  openFiles: positiveInt().optional(),
  processes: positiveInt().optional(),
});

/** A section's keys that are set: layered over defaults, an explicit `undefined` must not erase one. */
export function setKeys<T extends object>(section: T | undefined): Partial<T> {
  return Object.fromEntries(Object.entries(section ?? {}).filter(([, v]) => v !== undefined)) as Partial<T>;
}
