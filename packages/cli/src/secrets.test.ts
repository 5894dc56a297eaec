// Secrets open only by a rule that names the tool and spells out the file; toolbelt's own files
// (config, --config elsewhere, .toolbelt/ state, the execution log) open by no rule at all.
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isolatedState, trustConfig } from './__fixtures__/trust.js';
import { createRuntime, type Runtime } from './runtime.js';

const root = realpathSync(mkdtempSync(join(tmpdir(), 'tb-secrets-')));
const env = isolatedState();
afterAll(() => {
  rmSync(root, { recursive: true, force: true });
  rmSync(env.XDG_STATE_HOME, { recursive: true, force: true });
});
mkdirSync(join(root, 'src'));
mkdirSync(join(root, 'certs'));
mkdirSync(join(root, 'conf'));
writeFileSync(join(root, 'src', '.env'), 'API_KEY=sk-live-1234\n');
writeFileSync(join(root, 'src', 'id_rsa'), '-----BEGIN OPENSSH PRIVATE KEY-----\n');
writeFileSync(join(root, 'src', 'app.json'), '{}\n');
writeFileSync(join(root, 'certs', 'server.pem'), '-----BEGIN CERTIFICATE-----\n');

async function withRules(
  rules: unknown[],
  run: (rt: Runtime) => Promise<void>,
  file = join(root, 'toolbelt.config.json'),
): Promise<void> {
  writeFileSync(file, JSON.stringify({ mode: 'yolo', rules }));
  trustConfig(file, env, [root]);
  const rt = await createRuntime({ root: [root], config: file }, { env });
  try {
    await run(rt);
  } finally {
    await rt.close();
  }
}

async function call(rt: Runtime, tool: string, input: Record<string, unknown>) {
  return rt.executor.call({ tool, input, sessionId: 'test' });
}

describe('sensitive files and allow rules', () => {
  it('a write rule for src/** opens no secret, to write_file or to read_file', async () => {
    await withRules([{ tool: 'write_file', path: 'src/**', action: 'allow' }], async (rt) => {
      for (const path of ['src/.env', 'src/id_rsa']) {
        const read = await call(rt, 'read_file', { path });
        expect(read.status, path).toBe('error');
        expect(read.error?.code).toBe('PERMISSION_DENIED');
        expect(read.error?.message).toContain(`{"tool":"read_file","path":"${path}","action":"allow"}`);
        const write = await call(rt, 'write_file', { path, content: 'x' });
        expect(write.error?.code, path).toBe('PERMISSION_DENIED');
      }
      const ordinary = await call(rt, 'write_file', { path: 'src/notes.txt', content: 'fine\n' });
      expect(ordinary.status).toBe('success');
    });
    expect(readFileSync(join(root, 'src', '.env'), 'utf8')).toBe('API_KEY=sk-live-1234\n');
  });

  it('a rule that names the tool and the file opens it for that tool only', async () => {
    await withRules(
      [
        { tool: 'read_file', path: 'src/.env', action: 'allow' },
        { tool: 'read_file', path: 'certs/*.pem', action: 'allow' },
        { tool: '*', path: 'src/id_rsa', action: 'allow' },
      ],
      async (rt) => {
        const env = await call(rt, 'read_file', { path: 'src/.env' });
        expect(env.status).toBe('success');
        expect(JSON.stringify(env.content)).toContain('sk-live-1234');
        expect((await call(rt, 'read_file', { path: 'certs/server.pem' })).status).toBe('success');
        // Another tool, a wildcard tool: still closed.
        expect((await call(rt, 'write_file', { path: 'src/.env', content: 'x' })).error?.code).toBe(
          'PERMISSION_DENIED',
        );
        expect((await call(rt, 'read_file', { path: 'src/id_rsa' })).error?.code).toBe('PERMISSION_DENIED');
      },
    );
  });

  it("a *.json edit rule never reaches toolbelt's config, a --config file elsewhere, or the execution log", async () => {
    const elsewhere = join(root, 'conf', 'agents.json');
    await withRules(
      [
        { tool: ['edit_file', 'write_file', 'read_file'], path: '**/*.json', action: 'allow' },
        { tool: 'read_file', path: '.toolbelt/executions.jsonl', action: 'allow' },
      ],
      async (rt) => {
        await call(rt, 'read_file', { path: 'src/app.json' });
        const edit = await call(rt, 'edit_file', {
          path: 'conf/agents.json',
          old_string: '"yolo"',
          new_string: '"yolo" ',
        });
        expect(edit.error?.code).toBe('PERMISSION_DENIED');
        expect(edit.error?.message).toContain('No rule changes this');
        expect(
          (await call(rt, 'write_file', { path: 'toolbelt.config.json', content: '{"mode":"yolo"}' })).error?.code,
        ).toBe('PERMISSION_DENIED');
        const log = await call(rt, 'read_file', { path: '.toolbelt/executions.jsonl' });
        expect(log.error?.code).toBe('PERMISSION_DENIED');
      },
      elsewhere,
    );
    expect(readFileSync(elsewhere, 'utf8')).not.toContain('"yolo" ');
  });
});
