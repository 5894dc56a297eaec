// Credentials in the workspace's .env reach toolbelt's own settings (web_search's key, gateway
// tokens) and nothing an agent starts; the file stays closed to the tools.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, textOf } from '@toolbelt/core';
import { createRuntime } from '../runtime.js';
import { isolatedState, writeTrustedConfig } from '../__fixtures__/trust.js';
import { withWorkspaceEnv } from './dotenv.js';

const BIN = fileURLToPath(new URL('../../bin/toolbelt.js', import.meta.url));
const root = realpathSync(mkdtempSync(join(tmpdir(), 'tb-dotenv-')));
const bare = join(root, 'bare');
mkdirSync(bare);
// The user's state directory outside the root; HOME stays the root, as the test of .env wants it.
const env = { ...isolatedState(), HOME: root };
const PROBE = 'dotenv-probe-8b1f';
writeFileSync(
  join(root, '.env'),
  `# credentials\nBRAVE_API_KEY=brave-from-dotenv\nDOTENV_PROBE=${PROBE}\nexport QUOTED="a b"\n`,
);
writeTrustedConfig(root, { mode: 'yolo' }, env);
const children = new Set<ChildProcess>();
afterAll(() => {
  for (const c of children) c.kill('SIGKILL');
  rmSync(root, { recursive: true, force: true });
  rmSync(env.XDG_STATE_HOME, { recursive: true, force: true });
});

describe('the workspace .env', () => {
  it('fills in variables the environment does not set, and never overrides one it does', () => {
    const merged = withWorkspaceEnv(root, { BRAVE_API_KEY: 'from-the-environment', PATH: '/bin' });
    expect(merged).toMatchObject({
      BRAVE_API_KEY: 'from-the-environment',
      DOTENV_PROBE: PROBE,
      QUOTED: 'a b',
      PATH: '/bin',
    });
    const none = { PATH: '/bin' };
    expect(withWorkspaceEnv(bare, none)).toBe(none);
  });

  it('never takes where toolbelt keeps its state, or whom it trusts, from the file', () => {
    const planted = join(root, 'planted');
    mkdirSync(planted);
    writeFileSync(
      join(planted, '.env'),
      `TOOLBELT_DB=${planted}/forged.db\nXDG_STATE_HOME=${planted}\nTOOLBELT_TRUST_CONFIG=abc\nHOME=${planted}\nBRAVE_API_KEY=k\n`,
    );
    const merged = withWorkspaceEnv(planted, { HOME: '/home/ann' });
    expect(merged).toEqual({ HOME: '/home/ann', BRAVE_API_KEY: 'k' });
  });

  it('says what to do when .env is there but cannot be read', () => {
    const odd = join(root, 'odd');
    mkdirSync(join(odd, '.env'), { recursive: true });
    expect(() => withWorkspaceEnv(odd, {})).toThrow(ConfigError);
    expect(() => withWorkspaceEnv(odd, {})).toThrow(
      /\.env is invalid:\n {2}- cannot read it \(EISDIR\); make it a readable file of NAME=value lines, or remove it/,
    );
  });

  it("registers web_search from its key, and gives it to no command, nor to this process's environment", async () => {
    const rt = await createRuntime({ root: [root] }, { env });
    try {
      expect(rt.env.BRAVE_API_KEY).toBe('brave-from-dotenv');
      expect(rt.registry.get('web_search')).toBeDefined();
      expect(process.env.DOTENV_PROBE).toBeUndefined();
      const shown = await rt.executor.call({ tool: 'shell_exec', input: { command: 'env' }, sessionId: 'test' });
      expect(shown.status).toBe('success');
      expect(textOf(shown)).toContain('PATH=');
      expect(textOf(shown)).not.toContain(PROBE);
      const read = await rt.executor.call({ tool: 'read_file', input: { path: '.env' }, sessionId: 'test' });
      expect(read.error?.code).toBe('PERMISSION_DENIED');
    } finally {
      await rt.close();
    }
    const without = await createRuntime({ root: [bare] }, { env });
    try {
      expect(without.registry.get('web_search')).toBeUndefined();
    } finally {
      await without.close();
    }
  });

  // Runs the built CLI: build first.
  it.runIf(existsSync(fileURLToPath(new URL('../../dist', import.meta.url))))(
    'gives `toolbelt serve` the gateway token it holds',
    async () => {
      const served = join(root, 'served');
      mkdirSync(served);
      const token = 'gateway-token-from-dotenv-0123';
      writeFileSync(join(served, '.env'), `TOOLBELT_GATEWAY_TOKEN=${token}\n`);
      const childEnv: Record<string, string | undefined> = { ...process.env, ...env };
      delete childEnv.TOOLBELT_GATEWAY_TOKEN;
      delete childEnv.TOOLBELT_GATEWAY_TOKEN_FILE;
      const child = spawn(process.execPath, [BIN, 'serve', '--root', served, '--port', '0'], {
        env: childEnv,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      children.add(child);
      const { url, banner } = await new Promise<{ url: string; banner: string }>((resolve, reject) => {
        let out = '';
        child.stdout!.on('data', (d) => {
          out += d;
          const m = /listening on (http:\/\/\S+)\n.*\n/.exec(out);
          if (m) resolve({ url: m[1], banner: out });
        });
        child.on('exit', (code) => reject(new Error(`toolbelt serve exited with ${code}: ${out}`)));
      });
      expect(banner).toContain('auth: 1 token required');
      expect((await fetch(`${url}/api/tools`)).status).toBe(401);
      expect((await fetch(`${url}/api/tools`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
      child.kill('SIGTERM');
    },
  );
});
