// The search tools: glob (files by name) and grep (contents, ripgrep or the JS engine).
import type { Tool } from '@toolbelt/core';
import { searchSettings, type SearchSettings } from './engine.js';
import { glob } from './glob.js';
import { createGrep } from './grep.js';

export { createGrep, glob };
export { globFiles } from './glob.js';
export { findRg, runGrep, type SearchSettings } from './engine.js';

/** glob and grep; `settings` (or config.search) picks the grep engine and the rg binary. */
export function searchTools(opts: { settings?: SearchSettings; config?: Record<string, unknown> } = {}): Tool[] {
  return [glob, createGrep(opts.settings ?? searchSettings(opts.config))];
}
