// `toolbelt token`: a new token with a config entry holding only its hash, and the hash of a token
// read from standard input; bad input refused with exit 2.
import { createHash } from 'node:crypto';
import { Auth } from '@toolbelt/gateway';
import { describe, expect, it } from 'vitest';
import { runMain, type MainRun } from '../__fixtures__/run-main.js';

function run(args: string[], input = ''): Promise<MainRun> {
  return runMain(['token', ...args], input);
}

describe('toolbelt token', () => {
  it('new: prints the token once and an entry the gateway accepts, holding only the hash', async () => {
    const { code, out } = await run([
      'new',
      '--name',
      'planner',
      '--role',
      'call',
      '--role',
      'events',
      '--agent',
      'planner',
    ]);
    expect(code).toBe(0);
    const token = /^token: (tb_[A-Za-z0-9_-]{32})$/m.exec(out)![1];
    const entry = JSON.parse(out.trim().split('\n').at(-1)!);
    expect(entry).toEqual({
      name: 'planner',
      tokenHash: `sha256:${createHash('sha256').update(token).digest('hex')}`,
      roles: ['call', 'events'],
      agents: ['planner'],
    });
    expect(out.split(token)).toHaveLength(2);
    expect(new Auth([entry]).authenticate(`Bearer ${token}`).name).toBe('planner');
    expect(JSON.parse((await run(['new'])).out.trim().split('\n').at(-1)!).roles).toEqual(['call']);
  });

  it('hash: hashes the token on standard input, never one from the command line', async () => {
    const token = 'existing-token-0123456789';
    expect(await run(['hash'], `${token}\n`)).toEqual({
      code: 0,
      out: `sha256:${createHash('sha256').update(token).digest('hex')}\n`,
      err: '',
    });
    expect((await run(['hash', token])).err).toMatch(/never from the command line/);
    expect((await run(['hash'], '')).err).toMatch(/standard input is empty/);
    expect((await run(['hash'], 'short\n')).err).toMatch(/shorter than 16 characters/);
    expect((await run(['hash'], 'two-tokens-000000000 another-000000000\n')).err).toMatch(/white space/);
  });

  it('refuses an unknown action or role with exit 2', async () => {
    expect(await run(['rotate'])).toMatchObject({ code: 2, err: expect.stringContaining('unknown action "rotate"') });
    expect(await run([])).toMatchObject({ code: 2, err: expect.stringContaining('say what to do') });
    expect(await run(['new', '--role', 'root'])).toMatchObject({
      code: 2,
      err: 'toolbelt token: unknown role root; use any of call, submit, approve, events, person, admin\n',
    });
  });
});
