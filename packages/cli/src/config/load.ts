// Parsing toolbelt.config.json (./open.ts finds and reads it, and checks its trust): JSON, then the
// composed schema with the aliases of other designs, into the one form every package reads. Every
// problem is reported with its path, none ignored.
import { parseConfigWith } from '@toolbelt/core';
import { configFileSchema } from './aliases.js';
import type { ToolbeltConfig } from './schema.js';

/** The config's name in the first workspace root. */
export const CONFIG_FILE = 'toolbelt.config.json';

/** Parses config JSON (text or value); throws ConfigError listing every problem with its path. */
export function parseConfig(source: string, raw: unknown): ToolbeltConfig {
  return parseConfigWith(configFileSchema, source, raw);
}
