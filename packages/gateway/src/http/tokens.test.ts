// Tokens given every way (hash, file, environment, plain), every bad way refused with what to fix,
// and only digests kept: not in the Auth object, not in what tools see, not in the database.
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inspect } from 'node:util';
import { defineTool } from '@toolbelt/core';
import { afterAll, describe, expect, it } from 'vitest';
import { startGateway } from '../__fixtures__/harness.js';
import { Auth, AuthConfigError, hashToken } from './auth.js';

const dir = mkdtempSync(join(tmpdir(), 'tb-tokens-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, text: string) => {
  writeFileSync(join(dir, name), text);
  return join(dir, name);
};
const sha = (t: string) => `sha256:${createHash('sha256').update(t).digest('hex')}`;
const bearer = (t: string) => `Bearer ${t}`;

describe('token sources', () => {
  const T = {
    hashed: 'hashed-token-000000000000',
    filed: 'filed-token-0000000000000',
    fileHash: 'file-hash-token-000000000',
    env: 'env-token-000000000000000',
    plain: 'plain-token-0000000000000',
  };
  const auth = new Auth(
    [
      { tokenHash: sha(T.hashed), roles: ['call'], name: 'hashed' },
      { tokenFile: file('filed.token', `${T.filed}\n`), roles: ['call'], name: 'filed' },
      { tokenFile: file('hash.token', `${sha(T.fileHash)}\n`), roles: ['call'], name: 'file-hash' },
      { tokenEnv: 'MY_TOKEN', roles: ['call'], name: 'env' },
      { token: T.plain, roles: ['approve'], name: 'plain' },
    ],
    { MY_TOKEN: T.env, TOOLBELT_GATEWAY_TOKEN_FILE: file('admin.token', 'admin-file-token-00000000') },
  );

  it('authenticates each, and the hash printed by hashToken is the one config takes', () => {
    expect(hashToken(T.hashed)).toBe(sha(T.hashed));
    expect(Object.entries(T).map(([, t]) => auth.authenticate(bearer(t)).name)).toEqual([
      'hashed',
      'filed',
      'file-hash',
      'env',
      'plain',
    ]);
    expect(auth.authenticate(bearer('admin-file-token-00000000')).roles.has('admin')).toBe(true);
    // A hash is not a token: knowing the config's hash gets you nothing.
    expect(() => auth.authenticate(bearer(sha(T.hashed)))).toThrow(/unknown token/);
  });

  it('keeps no plain token in memory', () => {
    const seen = inspect(auth, { depth: null, showHidden: true });
    for (const t of [...Object.values(T), 'admin-file-token-00000000']) expect(seen).not.toContain(t);
  });
});

describe('bad token settings', () => {
  const bad = (spec: Record<string, unknown>, env: Record<string, string> = {}) => {
    try {
      new Auth([{ roles: ['call'], ...spec } as never], env);
      return 'accepted';
    } catch (err) {
      expect(err).toBeInstanceOf(AuthConfigError);
      return (err as Error).message;
    }
  };
  mkdirSync(join(dir, 'a-directory'));

  it('says what to fix', () => {
    expect(bad({})).toBe(
      'gateway.tokens[0]: no token; set one of "tokenHash" (from toolbelt token new), "tokenFile", "tokenEnv" or "token"',
    );
    expect(bad({ token: 'plain-token-0000000000000', tokenEnv: 'X' })).toMatch(/set only one of "tokenEnv", "token"/);
    expect(bad({ tokenHash: 'sha256:abc' })).toMatch(/tokenHash must be "sha256:" followed by 64 hex digits/);
    expect(bad({ tokenHash: 'md5:0123' })).toMatch(/tokenHash must be/);
    expect(bad({ token: sha('x') })).toMatch(/looks like a hash; put a hash under "tokenHash"/);
    expect(bad({ tokenFile: 'relative.token' })).toMatch(/tokenFile must be an absolute path/);
    expect(bad({ tokenFile: join(dir, 'missing.token') })).toMatch(/cannot read tokenFile .*missing\.token: ENOENT/);
    expect(bad({ tokenFile: join(dir, 'a-directory') })).toMatch(/is not a regular file/);
    expect(bad({ tokenFile: file('empty.token', '\n') })).toMatch(/is empty/);
    expect(bad({ tokenFile: file('big.token', 'x'.repeat(5000)) })).toMatch(/is 5000 bytes; it should hold one token/);
    expect(bad({ tokenFile: file('short.token', 'short') })).toMatch(/shorter than 16 characters/);
    expect(bad({ tokenEnv: 'UNSET' })).toMatch(/set the environment variable UNSET/);
    expect(bad({ token: 'plain-token-0000000000000', roles: ['root'] })).toMatch(/unknown role root/);
    expect(
      bad({ token: 'plain-token-0000000000000', name: 'dup' }, { TOOLBELT_GATEWAY_TOKEN: 'plain-token-0000000000000' }),
    ).toMatch(/^TOOLBELT_GATEWAY_TOKEN: the same token as dup/);
  });
});

describe('what the gateway keeps', () => {
  it('never stores a plain token, nor shows tools the configured ones', async () => {
    const token = `never-stored-${'x'.repeat(20)}`;
    let configSeen = '';
    // Tools get no config at all (each package reads its own section when it builds them).
    const peek = defineTool({
      name: 'peek',
      description: 'Shows the config tools get.',
      input: { type: 'object' },
      effect: 'read',
      execute: (_i, ctx) => (configSeen = String(JSON.stringify((ctx as { config?: unknown }).config))),
    });
    const h = await startGateway({ tools: [peek], config: { gateway: { tokens: [{ token, roles: ['admin'] }] } } });
    try {
      expect((await h.client({ token }).call('run-1', 'peek', {})).status).toBe('success');
      expect(configSeen).toBe('undefined');
      await h.stop();
      for (const name of readdirSync(h.dir)) expect(readFileSync(join(h.dir, name)).includes(token), name).toBe(false);
    } finally {
      await h.cleanup();
    }
  });
});
