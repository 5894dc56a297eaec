// A command card: one family of commands in one place — the read rule (its option table and
// operands), how much worse than a read the family can be, and examples of each verdict, which
// cards.test.ts classifies on every run (a card whose examples disagree with the classifier fails).
// The families moved to cards so far: git, checksums, archives, package queries, ps, system information.
import type { Names } from '../producers.js';
import type { Effect, Handler, SimpleCommand } from '../types.js';
import type { ReadSpec } from './spec.js';

/** What an example must classify as: `read` runs without asking in safe; `asks` is anything else. */
export type Verdict = 'read' | 'asks' | 'edit' | 'code';

export interface Examples {
  read?: readonly string[];
  asks?: readonly string[];
  edit?: readonly string[];
  code?: readonly string[];
}

export interface Card {
  /** The command names the card covers (each name belongs to one card). */
  names: readonly string[];
  /** The most a command of the family can do beyond reading, with the options it has. */
  worst: Effect;
  /** When it is a read. */
  spec: ReadSpec;
  /** How much worse than a read a call is, by its arguments (commands/); without one, what is not a read runs code. */
  handler?: Handler;
  /** How many words of a call "always approve" may remember (prefix.ts); without it, the general rules there. */
  prefixWords?(cmd: SimpleCommand): number | undefined;
  /** The file names a call prints, for xargs and loops (producers.ts). */
  printsNames?(cmd: SimpleCommand): Names | undefined;
  /** Judged outside the sandbox (the default). */
  examples: Examples;
  /** Judged where reads run in the read-only sandbox with the roots' secrets shown empty. */
  confined?: Examples;
}

/** name -> read rule, for the allow-list; a name on two cards is a mistake. */
export function specsOf(cards: readonly Card[]): Record<string, ReadSpec> {
  const out: Record<string, ReadSpec> = {};
  for (const card of cards) {
    for (const name of card.names) {
      if (Object.hasOwn(out, name)) throw new Error(`${name} is on two command cards`);
      out[name] = card.spec;
    }
  }
  return out;
}
