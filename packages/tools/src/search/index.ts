// The search tools: glob (files by name) and grep (contents, ripgrep or the JS engine).
import { configSection, type Tool } from '@toolbelt/core';
import type { SearchSettings } from './engine.js';
import { glob } from './glob.js';
import { createGrep } from './grep.js';
import { searchSection } from './section.js';

export { createGrep, glob };
export { globFiles } from './glob.js';
export { findRg, runGrep, type SearchSettings } from './engine.js';
export { searchSection } from './section.js';

/** glob and grep; `settings` (or the config's `search` section, checked by its schema) picks the grep engine and the rg binary. */
export function searchTools(opts: { settings?: SearchSettings; config?: unknown } = {}): Tool[] {
  return [glob, createGrep(opts.settings ?? configSection(opts.config, 'search', searchSection) ?? {})];
}
