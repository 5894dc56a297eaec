// Two agents with `call` tokens on one gateway over a real workspace with the built-in file tools.
// The workspace holds what a careless setup leaves there: toolbelt.config.json with plain tokens,
// the config actually used under another name (what `--config FILE` gives), .toolbelt/ with the
// CLI's log and the gateway database, and a token file. Neither agent may reach the other's calls
// through the API, nor any of those files through any file tool. (Shell tools are left out: the
// shell classifier is being rewritten.)
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ToolResult } from '@toolbelt/core';
import type { GatewayConfig } from '../config.js';
import { GatewayError } from '@toolbelt/client';
import { builtinTools, WorkspaceGuard } from '@toolbelt/tools';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, until, type Harness } from '../__fixtures__/harness.js';

const hex = () => randomBytes(8).toString('hex');
const T = { a: `agent-a-token-${hex()}`, b: `agent-b-token-${hex()}`, ops: `ops-admin-token-${hex()}` };
/** What agent B puts in its calls; agent A must never see it. */
const SECRET_B = `b-secret-${hex()}`;
const ws = realpathSync(mkdtempSync(join(tmpdir(), 'tb-isolation-')));
const opsTokenFile = join(ws, 'secrets', 'ops.token');
const config: GatewayConfig = {
  gateway: {
    tokens: [
      { token: T.a, roles: ['call', 'events'], agents: ['agent-a'], name: 'a' },
      { token: T.b, roles: ['call', 'events'], agents: ['agent-b'], name: 'b' },
      { tokenFile: opsTokenFile, roles: ['admin'], name: 'ops' },
    ],
  },
};
const CONFIG_TEXT = JSON.stringify(config, null, 2);
/** Everything the file tools must refuse to read. */
const OWN_FILES = [
  'toolbelt.config.json',
  'conf/agents.json',
  '.toolbelt/executions.jsonl',
  '.toolbelt/gateway.db',
  'secrets/ops.token',
  'innocent-looking.txt',
  'state-link/gateway.db',
];
/** What each agent may see of the secrets: its own token, and for B its own input. */
const own = { a: [T.a], b: [T.b, SECRET_B] };

let h: Harness;
beforeAll(async () => {
  mkdirSync(join(ws, 'conf'));
  mkdirSync(join(ws, 'secrets'));
  mkdirSync(join(ws, '.toolbelt'));
  mkdirSync(join(ws, 'src'));
  writeFileSync(join(ws, 'src', 'app.ts'), 'export const app = "ordinary code";\n');
  writeFileSync(join(ws, 'toolbelt.config.json'), CONFIG_TEXT);
  writeFileSync(join(ws, 'conf', 'agents.json'), CONFIG_TEXT);
  writeFileSync(opsTokenFile, `${T.ops}\n`);
  writeFileSync(
    join(ws, '.toolbelt', 'executions.jsonl'),
    `${JSON.stringify({ tool: 'read_file', params: { path: SECRET_B }, agentId: 'agent-b' })}\n`,
  );
  symlinkSync('conf/agents.json', join(ws, 'innocent-looking.txt'));
  symlinkSync('.toolbelt', join(ws, 'state-link'));
  // As the CLI's runtime builds it for `toolbelt serve --config conf/agents.json`.
  const workspace = new WorkspaceGuard({
    roots: [ws],
    protectedPaths: [join(ws, 'conf', 'agents.json'), opsTokenFile],
  });
  h = await startGateway({
    config,
    dir: ws,
    db: join(ws, '.toolbelt', 'gateway.db'),
    workspace,
    mode: 'auto-edit',
    tools: builtinTools().filter((t) => !t.name.startsWith('shell_')),
  });
});
afterAll(async () => {
  await h?.cleanup();
  rmSync(ws, { recursive: true, force: true });
});

const agent = (name: 'a' | 'b') => h.client({ token: T[name], agentId: `agent-${name}` });
const text = (r: ToolResult) => r.content.map((c) => ('text' in c ? c.text : '')).join('\n');
const refusal = (p: Promise<unknown>) =>
  p.then(
    () => 'allowed',
    (e: GatewayError) => `${e.status}`,
  );

/** What an agent gets back from a call, checked to hold nothing of the other agent's or of toolbelt's secrets. */
async function call(who: 'a' | 'b', tool: string, input: Record<string, unknown>): Promise<ToolResult> {
  const r = await agent(who).call(`run-${who}`, tool, input);
  const shown = JSON.stringify(r);
  for (const s of [T.a, T.b, T.ops, SECRET_B])
    if (!own[who].includes(s)) expect(shown, `${tool} ${JSON.stringify(input)}`).not.toContain(s);
  return r;
}

describe('two agents on one gateway', () => {
  it("keeps each agent's calls, results and events from the other", async () => {
    const bCall = await call('b', 'glob', { pattern: `**/${SECRET_B}*` });
    expect(bCall.status).toBe('success');
    const a = agent('a');
    expect((await a.calls()).calls.map((c) => c.agentId)).not.toContain('agent-b');
    expect((await a.calls({ agentId: 'agent-b' })).calls).toEqual([]);
    expect(await refusal(a.getCall(bCall.callId))).toBe('404');
    expect(await refusal(h.client({ token: T.a, agentId: 'agent-b' }).call('run-b', 'glob', { pattern: '*' }))).toBe(
      '403',
    );
    expect(await refusal(a.inbox('agent-b'))).toBe('403');
    for (const path of ['/api/executions', '/metrics'])
      expect((await fetch(`${h.url}${path}`, { headers: { authorization: `Bearer ${T.a}` } })).status).toBe(403);

    const seen: string[] = [];
    // From the first event on; once the stream is open, A makes a call of its own to end it.
    const ready = () => void a.call('run-a', 'list_directory', { path: 'src' }, { callId: 'a-marker' });
    for await (const e of a.events({ lastEventId: 0, reconnect: false, onReady: ready })) {
      seen.push(JSON.stringify(e));
      if (e.type === 'tool.result' && e.callId === 'a-marker') break;
    }
    expect(seen.length).toBeGreaterThan(1);
    expect(seen.join('\n')).not.toContain('agent-b');
    expect(seen.join('\n')).not.toContain(SECRET_B);
  });

  it('lets neither agent approve its own call', async () => {
    const asked = agent('a').call('run-a', 'delete_file', { path: 'src/app.ts' }, { callId: 'a-delete' });
    await until(
      () =>
        h
          .client({ token: T.ops })
          .getCall('a-delete')
          .then(
            (c) => c.status,
            () => 'missing',
          ),
      (s) => s === 'awaiting_approval',
      'the delete to await approval',
    );
    expect(await refusal(agent('a').approve('a-delete'))).toBe('403');
    expect(await refusal(agent('b').approve('a-delete'))).toBe('403');
    await h.client({ token: T.ops }).reject('a-delete', 'not in this test');
    expect((await asked).status).toBe('rejected');
  });

  it("refuses toolbelt's files to every file tool, for both agents", async () => {
    for (const who of ['a', 'b'] as const) {
      for (const path of OWN_FILES) {
        const r = await call(who, 'read_file', { path });
        expect([path, r.status, r.error?.code]).toEqual([path, 'error', 'PERMISSION_DENIED']);
        expect(text(r)).toContain('is protected');
      }
      const attempts: [string, Record<string, unknown>][] = [
        ['copy_file', { source: 'conf/agents.json', destination: 'src/copy.json' }],
        ['copy_file', { source: 'secrets/ops.token', destination: 'src/ops.txt' }],
        ['move_file', { source: 'conf', destination: 'src/conf' }],
        ['move_file', { source: 'toolbelt.config.json', destination: 'src/config.json' }],
        ['move_file', { source: '.toolbelt', destination: 'src/state' }],
        ['write_file', { path: 'conf/agents.json', content: '{"mode":"yolo"}' }],
        ['edit_file', { path: 'toolbelt.config.json', old_string: '"call"', new_string: '"admin"' }],
        ['append_file', { path: '.toolbelt/executions.jsonl', content: 'x' }],
        ['delete_file', { path: '.toolbelt/gateway.db' }],
        ['grep', { pattern: 'token', path: '.toolbelt' }],
        ['grep', { pattern: 'token', path: 'conf/agents.json' }],
      ];
      for (const [tool, input] of attempts) {
        const r = await call(who, tool, input);
        expect([tool, input, r.status, r.error?.code]).toEqual([tool, input, 'error', 'PERMISSION_DENIED']);
      }
    }
    expect(readFileSync(join(ws, 'conf', 'agents.json'), 'utf8')).toBe(CONFIG_TEXT);
    expect(readFileSync(join(ws, 'toolbelt.config.json'), 'utf8')).toBe(CONFIG_TEXT);
  });

  it("searches past them: grep and glob over the whole workspace show no token and no other agent's input", async () => {
    for (const who of ['a', 'b'] as const) {
      // Regular expressions that match the secrets without spelling them out in the call.
      for (const pattern of ['-token-[0-9a-f]{16}', 'b-secret-[0-9a-f]{16}', '"tokens"']) {
        const r = await call(who, 'grep', { pattern, include_ignored: true });
        expect(r.status).toBe('success');
        expect(text(r)).not.toMatch(/toolbelt\.config\.json:|agents\.json:|ops\.token:|executions\.jsonl:|gateway\.db/);
      }
      const files = await call(who, 'glob', { pattern: '**/*', include_ignored: true });
      expect(text(files)).toContain('src/app.ts');
      const listing = await call(who, 'list_directory', { path: '.toolbelt', depth: 2 });
      expect([listing.status, text(listing)]).toEqual(['success', expect.stringContaining('executions.jsonl')]);
    }
  });
});
