// `toolbelt call` on a proxied tool whose server asks a question during the call: --yes answers
// with the form's defaults (nobody is there), --non-interactive declines.
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_SERVER } from '../../../mcp/src/__fixtures__/servers.js';
import { runMain } from '../__fixtures__/run-main.js';
import { writeTrustedConfig } from '../__fixtures__/trust.js';

const root = realpathSync(mkdtempSync(join(tmpdir(), 'tb-call-elicit-')));
const state = mkdtempSync(join(tmpdir(), 'tb-call-elicit-state-'));
const stateBefore = process.env.XDG_STATE_HOME;

beforeAll(() => {
  const config = {
    sandbox: { mode: 'off' },
    mcpServers: { fx: { command: process.execPath, args: [FIXTURE_SERVER], allowedTools: ['ask_user'] } },
  };
  process.env.XDG_STATE_HOME = state;
  writeTrustedConfig(root, config);
});
afterAll(() => {
  if (stateBefore === undefined) delete process.env.XDG_STATE_HOME;
  else process.env.XDG_STATE_HOME = stateBefore;
  rmSync(root, { recursive: true, force: true });
  rmSync(state, { recursive: true, force: true });
});

const answerOf = (out: string) => JSON.parse(JSON.parse(out).content[0].text);

describe('toolbelt call and a server that asks', () => {
  it("accepts with the schema's defaults under --yes", async () => {
    const r = await runMain(['call', 'fx__ask_user', '{}', '--root', root, '--yes', '--json']);
    expect(r.code, r.err).toBe(0);
    expect(answerOf(r.out)).toEqual({ action: 'accept', content: { name: 'Ada', count: 3, color: 'green' } });
  });

  it('declines without a person (--non-interactive, yolo)', async () => {
    const r = await runMain([
      'call',
      'fx__ask_user',
      '{}',
      '--root',
      root,
      '--mode',
      'yolo',
      '--non-interactive',
      '--json',
    ]);
    expect(r.code, r.err).toBe(0);
    expect(answerOf(r.out)).toEqual({ action: 'decline' });
  });
});
