// The shell family: shell_exec, and shell_background with its companions, all sharing one
// manager so that closing the executor stops every process they started.
import type { Tool } from '@toolbelt/core';
import { ShellManager } from './manager.js';
import { shellSettings, type ShellSettings } from './settings.js';
import { shellBackground } from './shell_background.js';
import { shellExec } from './shell_exec.js';
import { shellKill } from './shell_kill.js';
import { shellList } from './shell_list.js';
import { shellOutput } from './shell_output.js';

export { classifyCommand, classifyLoaded, type ClassifyOptions } from './classify/classify.js';
export { loadBashParser } from './classify/parser.js';
export { ShellManager } from './manager.js';
export { shellSettings, SHELL_DEFAULTS, type ShellSettings } from './settings.js';

export interface ShellToolsOptions {
  /** toolbelt.config.json; its `shell` section is read. */
  config?: Record<string, unknown>;
  /** Override settings (embedding, tests). */
  settings?: Partial<ShellSettings>;
}

export function shellTools(opts: ShellToolsOptions = {}): Tool[] {
  const manager = new ShellManager(shellSettings(opts.config, opts.settings));
  return [shellExec(manager), shellBackground(manager), shellOutput(manager), shellList(manager), shellKill(manager)];
}
