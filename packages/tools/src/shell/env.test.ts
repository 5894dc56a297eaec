import { textOf } from '@toolbelt/core';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanupWorkspaces, harness } from './__fixtures__/harness.js';
import { HIDE_ENV_DEFAULT, scrubbedEnv } from './env.js';

afterAll(cleanupWorkspaces);

describe("commands' environment", () => {
  it("drops toolbelt's own secrets always, key-like variables unless passed through", () => {
    const base = {
      PATH: '/bin',
      TOOLBELT_GATEWAY_TOKEN: 't',
      OPENAI_API_KEY: 'k',
      GITHUB_TOKEN: 'g',
      DB_PASSWORD: 'p',
      AWS_SECRET: 's',
      HOME: '/h',
    };
    expect(Object.keys(scrubbedEnv(base, { hideEnv: HIDE_ENV_DEFAULT, passEnv: [] })).sort()).toEqual(['HOME', 'PATH']);
    const passed = scrubbedEnv(base, {
      hideEnv: HIDE_ENV_DEFAULT,
      passEnv: ['GITHUB_TOKEN', 'TOOLBELT_GATEWAY_TOKEN'],
    });
    expect(passed.GITHUB_TOKEN).toBe('g');
    expect(passed.TOOLBELT_GATEWAY_TOKEN).toBeUndefined();
  });

  it('a command that prints its environment sees none of them, and env asks first', async () => {
    process.env.TOOLBELT_GATEWAY_TOKEN = 'gateway-secret-token';
    process.env.SOME_SERVICE_API_KEY = 'api-secret-key';
    try {
      const asked = harness({ mode: 'safe' });
      const r = await asked.call('shell_exec', { command: 'env' });
      expect(r.status).toBe('rejected');
      expect(asked.requests[0].effect).toBe('execute');
      const h = harness({ mode: 'yolo', config: { shell: { passEnv: ['SOME_SERVICE_API_KEY'] } } });
      const out = textOf(await h.call('shell_exec', { command: 'env; cat /proc/self/environ | tr "\\0" "\\n"' }));
      expect(out).not.toContain('gateway-secret-token');
      expect(out).toContain('SOME_SERVICE_API_KEY=api-secret-key');
      const hidden = textOf(await harness({ mode: 'yolo' }).call('shell_exec', { command: 'env' }));
      expect(hidden).not.toContain('api-secret-key');
      expect(hidden).toContain('PATH=');
    } finally {
      delete process.env.TOOLBELT_GATEWAY_TOKEN;
      delete process.env.SOME_SERVICE_API_KEY;
    }
  });

  it('rejects a malformed hideEnv or passEnv with what to write instead', () => {
    expect(() => harness({ config: { shell: { hideEnv: 'X' } } })).toThrow(
      /shell\.hideEnv: must be a list of variable names/,
    );
  });
});
