// Reading toolbelt.config.json: JSON, then the composed schema with the aliases of other designs,
// into the one form every package reads. Every problem is reported with its path, none ignored.
import { readFileSync } from 'node:fs';
import { ConfigError, parseConfigWith } from '@toolbelt/core';
import { configFileSchema } from './aliases.js';
import type { ToolbeltConfig } from './schema.js';

/** The config's name in the first workspace root. */
export const CONFIG_FILE = 'toolbelt.config.json';

/** Parses config JSON (text or value); throws ConfigError listing every problem with its path. */
export function parseConfig(source: string, raw: unknown): ToolbeltConfig {
  return parseConfigWith(configFileSchema, source, raw);
}

export function readConfigFile(path: string): ToolbeltConfig {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new ConfigError(path, [`cannot read it: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`]);
  }
  return parseConfig(path, text);
}
