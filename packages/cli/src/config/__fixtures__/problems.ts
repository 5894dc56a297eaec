// What the config loader says is wrong with a config; a test fails if it accepts it.
import { expect } from 'vitest';
import { ConfigError } from '@toolbelt/core';
import { parseConfig } from '../load.js';

export function problems(raw: unknown): string[] {
  try {
    parseConfig('t.json', raw);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as ConfigError).problems;
  }
  throw new Error('the config was accepted');
}
