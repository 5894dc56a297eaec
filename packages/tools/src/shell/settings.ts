// The `shell` section of toolbelt.config.json, with defaults. (allow/deny prefix lists become
// policy rules in the CLI runtime; they are not the tools' business.)
import type { ResourceLimits } from '../process/limits.js';
import { HIDE_ENV_DEFAULT, type EnvSettings } from './env.js';

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

function names(value: unknown, name: string): string[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string' || !/^[A-Za-z0-9_*]+$/.test(v))) {
    throw new Error(`shell.${name} in the config must be a list of variable names (\`*\` allowed), not ${JSON.stringify(value)}`);
  }
  return value as string[];
}

function atLeastZero(value: unknown, name: string): number | undefined {
  if (value === 0) return 0;
  return positive(value, name);
}

function positive(value: unknown, name: string): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value <= 0) {
    throw new Error(`shell.${name} in the config must be a positive integer, not ${JSON.stringify(value)}`);
  }
  return value;
}

/** Reads `config.shell`; `overrides` (for embedding and tests) win over the config. */
export function shellSettings(config: Record<string, unknown> | undefined, overrides: Partial<ShellSettings> = {}): ShellSettings {
  const raw = (config?.shell ?? {}) as Record<string, unknown>;
  if (typeof raw !== 'object' || raw === null) throw new Error('shell in the config must be an object');
  const fromConfig: Partial<ShellSettings> = {};
  const set = <K extends keyof ShellSettings>(key: K, v: ShellSettings[K] | undefined) => {
    if (v !== undefined) fromConfig[key] = v;
  };
  set('defaultTimeoutMs', positive(raw.defaultTimeoutMs, 'defaultTimeoutMs'));
  set('maxTimeoutMs', positive(raw.maxTimeoutMs, 'maxTimeoutMs'));
  set('maxOutputBytes', positive(raw.maxOutputBytes, 'maxOutputBytes'));
  set('maxOutputFileBytes', atLeastZero(raw.maxOutputFileBytes, 'maxOutputFileBytes'));
  set('hideEnv', names(raw.hideEnv, 'hideEnv'));
  set('passEnv', names(raw.passEnv, 'passEnv'));
  if (raw.limits !== undefined) {
    const l = raw.limits as Record<string, unknown>;
    set('limits', {
      ...(l.cpuSeconds !== undefined ? { cpuSeconds: positive(l.cpuSeconds, 'limits.cpuSeconds') } : {}),
      ...(l.memoryMb !== undefined ? { memoryMb: positive(l.memoryMb, 'limits.memoryMb') } : {}),
      ...(l.dataMb !== undefined ? { dataMb: positive(l.dataMb, 'limits.dataMb') } : {}),
      ...(l.openFiles !== undefined ? { openFiles: positive(l.openFiles, 'limits.openFiles') } : {}),
      ...(l.processes !== undefined ? { processes: positive(l.processes, 'limits.processes') } : {}),
    });
  }
  const s = { ...SHELL_DEFAULTS, ...fromConfig, ...overrides };
  if (s.defaultTimeoutMs > s.maxTimeoutMs) s.defaultTimeoutMs = s.maxTimeoutMs;
  if (s.maxOutputBytes < 256) s.maxOutputBytes = 256;
  return s;
}
