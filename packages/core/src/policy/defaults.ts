// Defaults kept as data: what each mode does with each effect, and the hard denies.
import type { Effect } from '../tool.js';
import type { Action, Mode, Rule } from './types.js';

export const MODE_TABLE: Readonly<Record<Mode, Readonly<Record<Effect, Action>>>> = {
  ask: { read: 'ask', write: 'ask', execute: 'ask', destructive: 'ask' },
  safe: { read: 'allow', write: 'ask', execute: 'ask', destructive: 'ask' },
  'auto-edit': { read: 'allow', write: 'allow', execute: 'ask', destructive: 'ask' },
  yolo: { read: 'allow', write: 'allow', execute: 'allow', destructive: 'allow' },
};

export const DEFAULT_MODE: Mode = 'safe';

/**
 * Denied in every mode. The shell classifier catches the many spellings of these (it marks the
 * call a `blocked` floor); these prefixes are a second net for tools that report commands without one.
 */
export const DEFAULT_HARD_DENY: readonly Rule[] = [
  { command: 'rm -rf /', action: 'deny', reason: 'deletes the whole file system' },
  { command: 'rm -fr /', action: 'deny', reason: 'deletes the whole file system' },
  { command: 'rm -rf /*', action: 'deny', reason: 'deletes the whole file system' },
  { command: 'rm -rf ~', action: 'deny', reason: 'deletes the home directory' },
  { command: ':(){ :|:& };:', action: 'deny', reason: 'fork bomb' },
  { command: 'mkfs', action: 'deny', reason: 'formats a file system' },
];
