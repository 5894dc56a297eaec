// Policy as plain data: a mode, ordered rules, hard denies, remembered decisions.
import type { RememberTarget } from '../approval.js';
import type { Effect, Floor, Subject } from '../tool.js';

export type Action = 'allow' | 'ask' | 'deny';
export type Mode = 'ask' | 'safe' | 'auto-edit' | 'yolo';
export const MODES: readonly Mode[] = ['ask', 'safe', 'auto-edit', 'yolo'];
/** Confirmation modes of the classic API, taken as ours: `none` confirms nothing by itself (ask), `all` approves all (yolo). */
export type ModeAlias = 'none' | 'all';
export const MODE_ALIASES: Readonly<Record<ModeAlias, Mode>> = { none: 'ask', all: 'yolo' };

/** A mode as given, in our words; undefined when it is no mode at all. */
export function canonicalMode(mode: string): Mode | undefined {
  if ((MODES as readonly string[]).includes(mode)) return mode as Mode;
  return Object.hasOwn(MODE_ALIASES, mode) ? MODE_ALIASES[mode as ModeAlias] : undefined;
}

/** An argument matcher: an exact value, or a regular expression over the value as text. */
export type ArgMatcher = string | number | boolean | null | { pattern: string };

export interface Rule {
  /** Tool name glob (`git_*`, `github__*`); default every tool. Several globs: any may match. */
  tool?: string | string[];
  effect?: Effect | Effect[];
  /** Command prefix, matched word by word (`npm run test` matches `npm run test -- -u`). */
  command?: string;
  /** Path glob; relative globs are taken from each workspace root. */
  path?: string;
  /** URL glob (`https://api.example.com/**`). */
  url?: string;
  /** Input fields that must match, all of them. */
  args?: Record<string, ArgMatcher>;
  action: Action;
  /** Shown to the model and the person when this rule decides. */
  reason?: string;
}

export interface PolicyConfig {
  mode: Mode;
  rules: Rule[];
  /** Rules that deny whatever the mode, rules or remembered decisions say. */
  hardDeny: Rule[];
}

export interface Remembered {
  target: RememberTarget;
  scope: 'session' | 'always';
  /** The effect of the call that was approved: the entry never covers a more severe call. */
  effect?: Effect;
  sessionId?: string;
  /** The agent whose call was approved: the entry covers that agent's calls only. */
  agentId?: string;
  createdAt: number;
}

/** Where "always" decisions live between runs (a JSON file, a database table). */
export interface DecisionStore {
  load(): Remembered[] | Promise<Remembered[]>;
  save(entry: Remembered): void | Promise<void>;
}

export interface PolicyCall {
  tool: string;
  effect: Effect;
  input: unknown;
  subject?: Subject;
  /** See Classification.floor. */
  floor?: Floor;
  /** See Classification.vouchedFor. */
  vouchedFor?: string;
  sessionId: string;
  /** The agent making the call (a gateway's agents): remembered approvals are per agent. */
  agentId?: string;
}

export type DecisionSource = 'blocked' | 'hard-deny' | 'rule' | 'always-ask' | 'remembered' | 'ask-first' | 'mode';

export interface PolicyDecision {
  action: Action;
  source: DecisionSource;
  /** In words: which rule or mode decided, and why. */
  reason: string;
  /** Index into rules (or hardDeny) when a rule decided. */
  ruleIndex?: number;
}
