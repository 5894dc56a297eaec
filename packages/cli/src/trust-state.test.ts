// Where trust and saved approvals are kept, and who can change them: a forged approvals file in the
// workspace grants nothing; a state directory inside a root is refused; a --config file inside a
// root (or inside a root the config itself adds) needs trust like the default one; CI pins bytes
// with TOOLBELT_TRUST_CONFIG, which the workspace .env cannot set; `toolbelt trust --list/--revoke`.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { isolatedState } from './__fixtures__/trust.js';
import { lineDiff } from './config/line-diff.js';
import { sha256 } from './config/trust-store.js';
import { approvalsPath } from './state-paths.js';

const BIN = fileURLToPath(new URL('../bin/toolbelt.js', import.meta.url));
const built = existsSync(fileURLToPath(new URL('../dist', import.meta.url)));
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

type Env = Record<string, string | undefined>;

function workspace(): { root: string; env: Env } {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'tb-trust-state-')));
  const env = { ...process.env, ...isolatedState() };
  dirs.push(root, env.XDG_STATE_HOME);
  return { root, env };
}

function cli(root: string, env: Env, ...args: string[]): { code: number | null; out: string; err: string } {
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd: root, env, encoding: 'utf8', timeout: 30_000 });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

// "Always approve shell_exec": as the terminal's `a` saves it (by command prefix; a whole-tool entry for a
// tool that runs commands is never honoured), and the whole-tool form too.
const ALWAYS_SHELL = [
  {
    target: { kind: 'prefix', tool: 'shell_exec', prefix: 'touch' },
    scope: 'always',
    effect: 'destructive',
    createdAt: 0,
  },
  { target: { kind: 'tool', tool: 'shell_exec' }, scope: 'always', effect: 'destructive', createdAt: 0 },
];

describe.runIf(built)('saved approvals', () => {
  it('a forged .toolbelt/approvals.json grants nothing; the same entry in the user state directory does', () => {
    const { root, env } = workspace();
    mkdirSync(join(root, '.toolbelt'));
    writeFileSync(join(root, '.toolbelt', 'approvals.json'), JSON.stringify(ALWAYS_SHELL));
    const forged = cli(root, env, 'call', 'shell_exec', '{"command":"touch made.txt"}', '--non-interactive');
    expect(forged.code).toBe(3);
    expect(forged.err).toContain('approval was required');
    expect(forged.err).toContain(
      `toolbelt: ${join(root, '.toolbelt', 'approvals.json')} is no longer read (saved approvals are kept in ${approvalsPath(root, env)})`,
    );
    expect(existsSync(join(root, 'made.txt'))).toBe(false);
    // Control: the real store, outside the workspace, is read.
    mkdirSync(join(approvalsPath(root, env), '..'), { recursive: true });
    writeFileSync(approvalsPath(root, env), JSON.stringify(ALWAYS_SHELL));
    const saved = cli(root, env, 'call', 'shell_exec', '{"command":"touch made.txt"}', '--non-interactive', '--json');
    expect(JSON.parse(saved.out)).toMatchObject({ status: 'success', approvedBy: 'remembered' });
    expect(existsSync(join(root, 'made.txt'))).toBe(true);
  });
});

describe.runIf(built)('where trust is kept', () => {
  it('refuses a state directory inside a root, for trust and for saved approvals', () => {
    const { root } = workspace();
    const env = { ...process.env, XDG_STATE_HOME: join(root, 'state') };
    writeFileSync(join(root, 'toolbelt.config.json'), '{"mode":"yolo"}');
    const trust = cli(root, env, 'trust');
    expect(trust.code).toBe(2);
    expect(trust.err).toContain(
      `cannot keep trust in ${join(root, 'state', 'toolbelt')}: it is inside the workspace root ${root}`,
    );
    const call = cli(root, env, 'tools');
    expect(call.code).toBe(2);
    expect(call.err).toContain(
      `toolbelt's state directory ${join(root, 'state', 'toolbelt')} is inside the workspace root ${root}`,
    );
    expect(call.err).toContain('Set XDG_STATE_HOME to a directory outside every root');
    // The agent's own trusted.json there counts for nothing; a config from outside the root still works.
    const outside = realpathSync(mkdtempSync(join(tmpdir(), 'tb-trust-conf-')));
    dirs.push(outside);
    writeFileSync(join(outside, 'c.json'), '{"mode":"auto-edit"}');
    const explained = cli(
      root,
      env,
      'call',
      'write_file',
      '{"path":"a.txt","content":"x"}',
      '--explain',
      '--config',
      join(outside, 'c.json'),
    );
    expect(explained.out).toContain('mode "auto-edit"');
  });

  it('a --config file inside a root needs trust; so does one in a root the config itself adds', () => {
    const { root, env } = workspace();
    mkdirSync(join(root, 'conf'));
    writeFileSync(join(root, 'conf', 'agents.json'), '{"mode":"yolo"}');
    const inside = cli(root, env, 'tools', '--config', 'conf/agents.json');
    expect(inside.code).toBe(2);
    expect(inside.err).toContain(
      `Review it, then run \`toolbelt trust --config ${join(root, 'conf', 'agents.json')}\``,
    );
    expect(cli(root, env, 'trust', '--config', 'conf/agents.json').code).toBe(0);
    expect(cli(root, env, 'tools', '--config', 'conf/agents.json').code).toBe(0);
    // A config outside --root that makes its own directory a root is inside the workspace too.
    const other = realpathSync(mkdtempSync(join(tmpdir(), 'tb-trust-other-')));
    dirs.push(other);
    writeFileSync(join(other, 'c.json'), JSON.stringify({ mode: 'yolo', workspace: { roots: [other] } }));
    const added = cli(root, env, 'tools', '--config', join(other, 'c.json'));
    expect(added.code).toBe(2);
    expect(added.err).toContain(`${join(other, 'c.json')} is not trusted`);
  });

  it('TOOLBELT_TRUST_CONFIG pins the exact bytes, from the real environment only, never the workspace .env', () => {
    const { root, env } = workspace();
    const text = '{"mode":"yolo"}';
    writeFileSync(join(root, 'toolbelt.config.json'), text);
    const pin = sha256(text);
    writeFileSync(join(root, '.env'), `TOOLBELT_TRUST_CONFIG=${pin}\nXDG_STATE_HOME=${join(root, 'fake')}\n`);
    expect(cli(root, env, 'tools').err).toContain('is not trusted');
    const explain = cli(
      root,
      { ...env, TOOLBELT_TRUST_CONFIG: pin },
      'call',
      'shell_exec',
      '{"command":"touch x"}',
      '--explain',
    );
    expect(explain.out).toContain('mode "yolo"');
    writeFileSync(join(root, 'toolbelt.config.json'), `${text}\n`);
    const changed = cli(root, { ...env, TOOLBELT_TRUST_CONFIG: pin }, 'tools');
    expect(changed.code).toBe(2);
    expect(changed.err).toContain(`has sha256 ${sha256(`${text}\n`)}, not the ${pin} that TOOLBELT_TRUST_CONFIG pins`);
  });

  it('init trusts what it writes; --list shows each trusted config and whether it changed; --revoke forgets it', () => {
    const { root, env } = workspace();
    const init = cli(root, env, 'init');
    expect(init.out).toContain('trusted it: after you edit it, review and run `toolbelt trust` again');
    expect(cli(root, env, 'tools').code).toBe(0);
    const file = join(root, 'toolbelt.config.json');
    const list = () => cli(root, env, 'trust', '--list').out;
    expect(list()).toMatch(new RegExp(`^trusted  ${file}  sha256 [0-9a-f]{12}  \\d{4}-`, 'm'));
    writeFileSync(file, readFileSync(file, 'utf8').replace('"safe"', '"yolo"'));
    expect(list()).toMatch(new RegExp(`^changed  ${file}`, 'm'));
    expect(cli(root, env, 'trust', '--revoke').out).toBe(`${file} is no longer trusted.\n`);
    expect(list()).toContain('No trusted configs');
    expect(cli(root, env, 'tools').err).toContain('is not trusted');
    // An invalid file is not trusted: it says what is wrong instead.
    writeFileSync(file, '{"mode":"fast"}');
    const bad = cli(root, env, 'trust');
    expect(bad.code).toBe(2);
    expect(bad.err).toContain(`toolbelt trust: ${file} is invalid:`);
  });
});

describe('the diff shown for a changed config', () => {
  it('shows the changed lines with three lines of context, and cuts a long one short', () => {
    const before = [
      '{',
      '  "a": 1,',
      '  "b": 2,',
      '  "c": 3,',
      '  "d": 4,',
      '  "e": 5,',
      '  "f": 6,',
      '  "g": 7',
      '}',
      '',
    ].join('\n');
    const after = before.replace('"b": 2', '"b": 20');
    expect(lineDiff(before, after, 'old', 'new')).toBe(
      [
        '--- old',
        '+++ new',
        '@@ -1,6 +1,6 @@',
        '{',
        '  "a": 1,',
        '-  "b": 2,',
        '+  "b": 20,',
        '  "c": 3,',
        '  "d": 4,',
        '  "e": 5,',
      ]
        .map((l, i) => (i > 2 && !l.startsWith('-') && !l.startsWith('+') ? ` ${l}` : l))
        .join('\n'),
    );
    expect(lineDiff(before, before, 'old', 'new')).toBe('');
    expect(lineDiff('', 'x\n', 'old', 'new')).toBe('--- old\n+++ new\n@@ -0,0 +1,1 @@\n+x');
    const long = lineDiff('', Array.from({ length: 100 }, (_, i) => `line ${i}`).join('\n'), 'old', 'new', 10);
    expect(long.split('\n')).toHaveLength(13);
    expect(long).toMatch(/\n\.\.\. \(91 more lines\)$/);
  });
});
