// The shell family: shell_exec, and shell_background with shell_job to read, list and stop what it started, all sharing one
// manager so that closing the executor stops every process they started.
import { configSection, type Tool } from '@toolbelt/core';
import { Sandbox } from '../sandbox/sandbox.js';
import { sandboxSection } from '../sandbox/section.js';
import { sandboxSettings } from '../sandbox/settings.js';
import { ShellManager } from './manager.js';
import { shellSection } from './section.js';
import { shellSettings, type ShellSettings } from './settings.js';
import { shellBackground } from './shell_background.js';
import { shellExec } from './shell_exec.js';
import { shellJob } from './shell_job.js';

export { classifyCommand } from './classify/classify.js';
export { loadBashParser } from './classify/parser.js';
export type { ShellSettings } from './settings.js';
export { shellSection, shellRulesFrom, type ShellSection } from './section.js';

export interface ShellToolsOptions {
  /** toolbelt.config.json (or an object like it); its `shell` and `sandbox` sections are read, checked by their schemas. */
  config?: unknown;
  /** Override settings (embedding, tests). */
  settings?: Partial<ShellSettings>;
  /** The sandbox to run commands in; default: one from the config's `sandbox` section. */
  sandbox?: Sandbox;
  /** For `~` in the sandbox's paths; default process.env. */
  env?: Record<string, string | undefined>;
}

export function shellTools(opts: ShellToolsOptions = {}): Tool[] {
  const sandbox =
    opts.sandbox ??
    new Sandbox(
      sandboxSettings(configSection(opts.config, 'sandbox', sandboxSection), opts.env ? { env: opts.env } : {}),
    );
  const manager = new ShellManager(
    shellSettings(configSection(opts.config, 'shell', shellSection), opts.settings),
    sandbox,
  );
  return [shellExec(manager), shellBackground(manager), shellJob(manager)];
}
