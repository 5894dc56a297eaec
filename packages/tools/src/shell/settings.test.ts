import { describe, expect, it } from 'vitest';
import { HIDE_ENV_DEFAULT } from './env.js';
import { SHELL_DEFAULTS, shellSettings } from './settings.js';

describe('shell settings', () => {
  it('lays the checked section over the defaults, and overrides over both', () => {
    const s = shellSettings(
      { defaultTimeoutMs: 5_000, passEnv: ['GITHUB_TOKEN'], limits: { cpuSeconds: 60 } },
      { killGraceMs: 100 },
    );
    expect(s).toMatchObject({
      defaultTimeoutMs: 5_000,
      maxTimeoutMs: SHELL_DEFAULTS.maxTimeoutMs,
      passEnv: ['GITHUB_TOKEN'],
      limits: { cpuSeconds: 60 },
      killGraceMs: 100,
    });
    expect(shellSettings(undefined)).toEqual(SHELL_DEFAULTS);
  });

  it('keeps a default that a typed section leaves undefined, and no timeout past the maximum', () => {
    const s = shellSettings({ hideEnv: undefined, defaultTimeoutMs: 900_000, maxTimeoutMs: 60_000 });
    expect(s.hideEnv).toEqual(HIDE_ENV_DEFAULT);
    expect(s.defaultTimeoutMs).toBe(60_000);
  });
});
