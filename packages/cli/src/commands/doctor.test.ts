import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { probeSandbox } from '@toolbelt/tools';
import { afterAll, describe, expect, it } from 'vitest';
import { runMain, type MainRun } from '../__fixtures__/run-main.js';
import { trustConfig, useIsolatedState } from '../__fixtures__/trust.js';

const root = realpathSync(mkdtempSync(join(tmpdir(), 'tb-doctor-')));
// Configs given with --config from outside the root need no trust.
const confs = mkdtempSync(join(tmpdir(), 'tb-doctor-conf-'));
const state = useIsolatedState();
afterAll(() => {
  for (const dir of [root, confs, state]) rmSync(dir, { recursive: true, force: true });
});
const works = (await probeSandbox('bwrap')).ok;

async function doctor(config: Record<string, unknown> | undefined, ...flags: string[]): Promise<MainRun> {
  const file = join(confs, `config-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, JSON.stringify(config ?? {}));
  return runMain(['doctor', '--root', root, '--config', file, ...flags]);
}

describe('toolbelt doctor', () => {
  it.skipIf(!works)('says the sandbox works here and what it allows', async () => {
    const r = await doctor({ sandbox: { network: ['npm install'], limits: { dataMb: 2048 } } });
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^ok {4}node {5}v\d+/m);
    expect(r.out).toMatch(/^ok {4}sandbox {2}works: bubblewrap [\d.]+ \(\/.*bwrap\), sandbox\.mode "auto"$/m);
    expect(r.out).toContain('network: commands starting with npm install (a command judged a read: none)');
    expect(r.out).toContain('limits per process: CPU 3600 s, data 2048 MB, 1024 open files, 4096 processes');
  });

  it('fails when the sandbox is required and does not work, saying why and how to fix it', async () => {
    const r = await doctor({ sandbox: { mode: 'required', bwrapPath: '/nonexistent/bwrap' } });
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/^FAIL {2}sandbox {2}does not work here: \/nonexistent\/bwrap was not found$/m);
    expect(r.out).toContain('fix: install bubblewrap (Debian/Ubuntu: apt-get install bubblewrap');
    expect(r.out).toContain(
      'sandbox.mode is "required": shell commands and stdio MCP servers are refused until it works',
    );
  });

  it('warns, and exits 0, when auto mode runs without it; reports off as off', async () => {
    const auto = await doctor({ sandbox: { bwrapPath: '/nonexistent/bwrap' } }, '--json');
    expect(auto.code).toBe(0);
    const checks = JSON.parse(auto.out) as { name: string; level: string; details?: string[] }[];
    expect(checks.map((c) => c.name)).toEqual(['node', 'config', 'bash', 'git', 'ripgrep', 'sandbox']);
    expect(checks[1]).toMatchObject({
      level: 'ok',
      summary: expect.stringContaining('(outside the workspace roots: needs no trust)'),
    });
    expect(checks[5]).toMatchObject({
      level: 'warn',
      details: expect.arrayContaining([
        'sandbox.mode is "auto": commands and stdio MCP servers run unconfined until it works',
      ]),
    });
    expect((await doctor({ sandbox: { mode: 'off' } })).out).toMatch(/^off {3}sandbox {2}off \(sandbox\.mode "off"\)/m);
  });

  it('refuses a sandbox path that is neither absolute nor under ~, as a config error', async () => {
    const r = await doctor({ sandbox: { writable: ['cache'] } });
    expect(r.code).toBe(2);
    expect(r.err).toContain('sandbox.writable[0]: must be an absolute path or one starting with "~/", not "cache"');
  });

  it('says whether the workspace config is trusted, and never acts on one that is not', async () => {
    const file = join(root, 'toolbelt.config.json');
    const run = async () => {
      const r = await runMain(['doctor', '--root', root, '--json']);
      const checks = JSON.parse(r.out) as { name: string; level: string; summary: string; details?: string[] }[];
      return {
        code: r.code,
        config: checks.find((c) => c.name === 'config')!,
        sandbox: checks.find((c) => c.name === 'sandbox')!,
      };
    };
    expect((await run()).config).toMatchObject({
      level: 'ok',
      summary: `none (${file} is not there): the defaults apply`,
    });
    // bwrapPath names a program doctor would run: an untrusted file must not choose it.
    writeFileSync(file, JSON.stringify({ sandbox: { mode: 'required', bwrapPath: '/nonexistent/bwrap' } }));
    const untrusted = await run();
    expect(untrusted.code).toBe(1);
    expect(untrusted.config.level).toBe('FAIL');
    expect(untrusted.config.summary).toBe(`untrusted: ${file}; every command refuses it`);
    expect(untrusted.config.details).toContain('the checks below use the defaults, not this file');
    expect(untrusted.config.details!.join('\n')).toContain(`Review it, then run \`toolbelt trust --root ${root}\``);
    expect(untrusted.sandbox.summary).not.toContain('/nonexistent/bwrap');
    trustConfig(file);
    const trusted = await run();
    expect(trusted.config).toMatchObject({
      level: 'ok',
      summary: expect.stringMatching(new RegExp(`^trusted: ${file} \\(sha256 [0-9a-f]{12}, since `)),
    });
    expect(trusted.sandbox.summary).toContain('/nonexistent/bwrap');
    writeFileSync(file, JSON.stringify({ sandbox: { mode: 'off' } }));
    const changed = await run();
    expect(changed.config).toMatchObject({
      level: 'FAIL',
      summary: `changed since trusted: ${file}; every command refuses it`,
    });
    expect(changed.config.details).toContain('+{"sandbox":{"mode":"off"}}');
    expect(changed.sandbox.level).not.toBe('off');
  });
});
