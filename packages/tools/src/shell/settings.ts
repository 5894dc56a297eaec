// The `shell` section of toolbelt.config.json with its defaults.
import { setKeys } from '@toolbelt/core';
import type { ResourceLimits } from '../process/limits.js';
import { HIDE_ENV_DEFAULT, type EnvSettings } from './env.js';
import type { ShellSection } from './section.js';

export interface ShellSettings extends EnvSettings {
  /** Per call when timeout_ms is not given. */
  defaultTimeoutMs: number;
  /** No call may ask for more. */
  maxTimeoutMs: number;
  /** Per stream (stdout, stderr; a background log): bytes kept as head + tail. */
  maxOutputBytes: number;
  /** Per stream of shell_exec: most bytes saved to a temp file when the result is cut; 0 saves none. */
  maxOutputFileBytes: number;
  limits?: ResourceLimits;
  /** Between SIGTERM and SIGKILL when a process group is stopped. */
  killGraceMs: number;
  /** Output kept per background process between reads. */
  backgroundLogBytes: number;
  /** Background processes that may run at once. */
  maxBackground: number;
}

export const SHELL_DEFAULTS: ShellSettings = {
  defaultTimeoutMs: 120_000,
  maxTimeoutMs: 600_000,
  maxOutputBytes: 30_000,
  maxOutputFileBytes: 256 * 1024 * 1024,
  killGraceMs: 2_000,
  backgroundLogBytes: 1024 * 1024,
  maxBackground: 16,
  hideEnv: HIDE_ENV_DEFAULT,
  passEnv: [],
};

/** The shell section (checked by its schema) with the defaults; `overrides` (embedding, tests) win. */
export function shellSettings(
  section: ShellSection | undefined,
  overrides: Partial<ShellSettings> = {},
): ShellSettings {
  // allow and deny ride along unread: they are policy rules, made by the CLI runtime.
  const s: ShellSettings = { ...SHELL_DEFAULTS, ...setKeys(section), ...overrides };
  if (s.defaultTimeoutMs > s.maxTimeoutMs) s.defaultTimeoutMs = s.maxTimeoutMs;
  if (s.maxOutputBytes < 256) s.maxOutputBytes = 256;
  return s;
}
