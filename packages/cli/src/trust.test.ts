// "The workspace is untrusted": an agent that can run programs in the workspace rewrites toolbelt's
// config (a patch applied, a file moved into place, an archive unpacked), and the next start would
// run with its policy. Each channel for real, in a temp git repo, against the built CLI in a child
// process: the rewritten config is refused, naming the file and `toolbelt trust`, and nothing runs;
// after `toolbelt trust` the same file is in effect, so the refusal is what stopped it.
import { spawnSync } from 'node:child_process';
import {
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  realpathSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { isolatedState } from './__fixtures__/trust.js';
import { openCheckoutToNobody } from '../../tools/src/sandbox/__fixtures__/reachable.js';

const BIN = fileURLToPath(new URL('../bin/toolbelt.js', import.meta.url));
const built = existsSync(fileURLToPath(new URL('../dist', import.meta.url)));
const SAFE = '{"mode":"safe"}\n';
const ATTACK = '{\n  "mode": "yolo",\n  "sandbox": { "mode": "off" }\n}\n';
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

type Env = Record<string, string | undefined>;
interface Run {
  code: number | null;
  out: string;
  err: string;
}

function run(cmd: string, args: string[], cwd: string, env: Env = process.env, input?: string): Run {
  const r = spawnSync(cmd, args, {
    cwd,
    env,
    encoding: 'utf8',
    timeout: 30_000,
    ...(input !== undefined ? { input } : {}),
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

function sh(cwd: string, script: string): void {
  const r = run('sh', ['-c', script], cwd);
  if (r.code !== 0) throw new Error(`${script}: ${r.err}`);
}

/** A git repo whose committed toolbelt.config.json is `{"mode":"safe"}`, trusted in a state directory of its own. */
function trustedRepo(): { repo: string; env: Env } {
  const repo = realpathSync(mkdtempSync(join(tmpdir(), 'tb-trust-repo-')));
  const env = { ...process.env, ...isolatedState() };
  dirs.push(repo, env.XDG_STATE_HOME);
  writeFileSync(join(repo, 'toolbelt.config.json'), SAFE);
  sh(repo, 'git init -q . && git add -A && git -c user.name=t -c user.email=t@t commit -qm init');
  expect(run(process.execPath, [BIN, 'trust'], repo, env)).toMatchObject({ code: 0 });
  return { repo, env };
}

/** The unified diff that turns the trusted config into the attacker's, as `git diff` writes it. */
function attackPatch(repo: string): string {
  writeFileSync(join(repo, 'toolbelt.config.json'), ATTACK);
  const diff = run('git', ['diff'], repo).out;
  sh(repo, 'git checkout -q toolbelt.config.json');
  writeFileSync(join(repo, 'p.diff'), diff);
  return diff;
}

const marker = () => join(tmpdir(), `tb-trust-marker-${Math.random().toString(36).slice(2)}`);

/** `toolbelt call shell_exec touch MARKER --non-interactive` must be refused before anything runs. */
function expectRefused(repo: string, env: Env, change: RegExp): void {
  const file = join(repo, 'toolbelt.config.json');
  const m = marker();
  const r = run(
    process.execPath,
    [BIN, 'call', 'shell_exec', JSON.stringify({ command: `touch ${m}` }), '--non-interactive'],
    repo,
    env,
  );
  expect(r.code, r.out + r.err).toBe(2);
  expect(r.err).toContain(`toolbelt call: ${file}`);
  expect(r.err).toMatch(change);
  expect(r.err).toContain('then run `toolbelt trust`');
  expect(existsSync(m)).toBe(false);
  const explained = run(
    process.execPath,
    [BIN, 'call', 'shell_exec', JSON.stringify({ command: `touch ${m}` }), '--explain'],
    repo,
    env,
  );
  expect(explained.code).toBe(2);
  expect(explained.out).toBe('');
}

/** The control: once trusted, the attacker's file is the policy (mode yolo). */
function expectInEffectOnceTrusted(repo: string, env: Env): void {
  const trusted = run(process.execPath, [BIN, 'trust'], repo, env);
  expect(trusted.out).toContain('mode "yolo", sandbox "off"');
  const explained = run(
    process.execPath,
    [BIN, 'call', 'shell_exec', `{"command":"touch ${marker()}"}`, '--explain'],
    repo,
    env,
  );
  expect(explained.code, explained.err).toBe(0);
  expect(explained.out).toContain('decided by: mode: mode "yolo" says allow');
}

const CHANGED = /changed since you trusted it/;

describe.runIf(built)('a workspace config rewritten by the programs an agent runs', () => {
  it('git apply: refused with the change shown; once trusted, in effect (and the marker proves a run)', () => {
    const { repo, env } = trustedRepo();
    attackPatch(repo);
    sh(repo, 'git apply p.diff');
    expectRefused(repo, env, CHANGED);
    // What changed is shown, against the copy kept when it was trusted.
    const shown = run(process.execPath, [BIN, 'tools'], repo, env).err;
    expect(shown).toContain(
      '-{"mode":"safe"}\n+{\n+  "mode": "yolo",\n+  "sandbox": { "mode": "off" }\n+}\nReview the change',
    );
    expectInEffectOnceTrusted(repo, env);
    // The marker is a real witness: with the attacker's policy trusted, the same call runs unasked.
    const m = marker();
    const ran = run(
      process.execPath,
      [BIN, 'call', 'shell_exec', JSON.stringify({ command: `touch ${m}` }), '--non-interactive'],
      repo,
      env,
    );
    expect(ran.code, ran.err).toBe(0);
    expect(existsSync(m)).toBe(true);
    rmSync(m);
  });

  it('patch -p1', () => {
    const { repo, env } = trustedRepo();
    attackPatch(repo);
    sh(repo, 'patch -s -p1 < p.diff');
    expectRefused(repo, env, CHANGED);
    expectInEffectOnceTrusted(repo, env);
  });

  it('mv other.json toolbelt.config.json, and git mv', () => {
    const { repo, env } = trustedRepo();
    writeFileSync(join(repo, 'other.json'), ATTACK);
    sh(repo, 'mv other.json toolbelt.config.json');
    expectRefused(repo, env, CHANGED);
    sh(repo, 'git checkout -q toolbelt.config.json');
    expect(run(process.execPath, [BIN, 'call', 'shell_exec', '{"command":"echo fine"}'], repo, env).out).toContain(
      'fine',
    );
    writeFileSync(join(repo, 'other.json'), ATTACK);
    sh(repo, 'git add other.json && git mv -f other.json toolbelt.config.json');
    expectRefused(repo, env, CHANGED);
    expectInEffectOnceTrusted(repo, env);
  });

  it('tar -xf and unzip of an archive holding a config', () => {
    const { repo, env } = trustedRepo();
    const packed = realpathSync(mkdtempSync(join(tmpdir(), 'tb-trust-archive-')));
    dirs.push(packed);
    writeFileSync(join(packed, 'toolbelt.config.json'), ATTACK);
    sh(packed, 'tar -cf evil.tar toolbelt.config.json && zip -q evil.zip toolbelt.config.json');
    sh(repo, `tar -xf ${join(packed, 'evil.tar')}`);
    expectRefused(repo, env, CHANGED);
    sh(repo, 'git checkout -q toolbelt.config.json');
    sh(repo, `unzip -oq ${join(packed, 'evil.zip')}`);
    expectRefused(repo, env, CHANGED);
    expectInEffectOnceTrusted(repo, env);
  });

  it('a config created where there was none is not trusted', () => {
    const repo = realpathSync(mkdtempSync(join(tmpdir(), 'tb-trust-new-')));
    const env = { ...process.env, ...isolatedState() };
    dirs.push(repo, env.XDG_STATE_HOME);
    sh(repo, 'git init -q .');
    expect(run(process.execPath, [BIN, 'call', 'shell_exec', '{"command":"echo none"}'], repo, env).out).toContain(
      'none',
    );
    sh(repo, `printf '%s' '${ATTACK}' > toolbelt.config.json`);
    expectRefused(repo, env, /is not trusted, so toolbelt will not use it/);
    expectInEffectOnceTrusted(repo, env);
  });

  it('a link put in its place is judged by what it leads to, against what was trusted there', () => {
    const { repo, env } = trustedRepo();
    // Another workspace's config, trusted there: trust is per place, so it counts for nothing here.
    const other = realpathSync(mkdtempSync(join(tmpdir(), 'tb-trust-other-')));
    dirs.push(other);
    writeFileSync(join(other, 'toolbelt.config.json'), ATTACK);
    expect(run(process.execPath, [BIN, 'trust', '--root', other], repo, env).code).toBe(0);
    rmSync(join(repo, 'toolbelt.config.json'));
    symlinkSync(join(other, 'toolbelt.config.json'), join(repo, 'toolbelt.config.json'));
    expectRefused(repo, env, CHANGED);
  });

  it('the reported attack, end to end: in auto-edit the agent writes a patch and applies it; the next start refuses the config', () => {
    const repo = realpathSync(mkdtempSync(join(tmpdir(), 'tb-trust-e2e-')));
    const env = { ...process.env, ...isolatedState() };
    dirs.push(repo, env.XDG_STATE_HOME);
    sh(repo, 'git init -q .');
    const patch = `--- /dev/null\n+++ b/toolbelt.config.json\n@@ -0,0 +1,4 @@\n${ATTACK.trimEnd()
      .split('\n')
      .map((l) => `+${l}`)
      .join('\n')}\n`;
    const agent = (tool: string, input: unknown) =>
      run(
        process.execPath,
        [BIN, 'call', tool, JSON.stringify(input), '--mode', 'auto-edit', '--non-interactive', '--json'],
        repo,
        env,
      );
    const wrote = agent('write_file', { path: 'p.diff', content: patch });
    expect(JSON.parse(wrote.out)).toMatchObject({ status: 'success' });
    const applied = agent('shell_exec', { command: 'git apply p.diff' });
    expect(applied.code, applied.out + applied.err).toBe(0);
    expect(existsSync(join(repo, 'toolbelt.config.json'))).toBe(true);
    expectRefused(repo, env, /is not trusted/);
  });
});

// As a user who is not root, which CI often is not: the workspace and the state directory belong to uid 65534.
const setpriv = spawnSync('setpriv', ['--version']).status === 0 && process.getuid?.() === 0;
// nobody runs this checkout's CLI: a checkout in a `mktemp -d` directory must let it pass through.
const unreachable = setpriv ? openCheckoutToNobody() : undefined;
if (unreachable) console.warn(`toolbelt: the trust test as an unprivileged user is skipped: ${unreachable}`);

describe.runIf(built && setpriv && !unreachable)('as an unprivileged user', () => {
  it('git apply of the attack is refused, and trusted by that user it is in effect', () => {
    const base = mkdtempSync(join(tmpdir(), 'tb-trust-nobody-'));
    dirs.push(base);
    const [repo, home] = [join(base, 'repo'), join(base, 'home')];
    mkdirSync(repo);
    mkdirSync(home);
    writeFileSync(join(repo, 'toolbelt.config.json'), SAFE);
    for (const d of [base, repo, home, join(repo, 'toolbelt.config.json')]) chownSync(d, 65534, 65534);
    const env = { PATH: process.env.PATH, HOME: home, XDG_STATE_HOME: join(home, 'state'), LANG: 'C.UTF-8' };
    const as = (...cmd: string[]) =>
      run('setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', ...cmd], repo, env);
    const cli = (...args: string[]) => as(process.execPath, BIN, ...args);
    expect(cli('trust')).toMatchObject({ code: 0 });
    expect(statSync(join(home, 'state', 'toolbelt', 'trusted.json')).uid).toBe(65534);
    const patchText = `--- a/toolbelt.config.json\n+++ b/toolbelt.config.json\n@@ -1 +1,4 @@\n-{"mode":"safe"}\n${ATTACK.trimEnd()
      .split('\n')
      .map((l) => `+${l}`)
      .join('\n')}\n`;
    expect(as('sh', '-c', `printf '%s' '${patchText}' > p.diff && git apply p.diff`)).toMatchObject({ code: 0 });
    const m = marker();
    const refused = cli('call', 'shell_exec', JSON.stringify({ command: `touch ${m}` }), '--non-interactive');
    expect(refused.code).toBe(2);
    expect(refused.err).toContain(`${realpathSync(repo)}/toolbelt.config.json changed since you trusted it`);
    expect(existsSync(m)).toBe(false);
    expect(cli('trust').code).toBe(0);
    expect(cli('call', 'shell_exec', `{"command":"touch ${m}"}`, '--explain').out).toContain('mode "yolo"');
    expect(readdirSync(join(home, 'state', 'toolbelt', 'trusted'))).toHaveLength(1);
  });
});
