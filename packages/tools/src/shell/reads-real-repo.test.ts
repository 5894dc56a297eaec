// The commonest agent reads in a real repository run without asking in mode `safe`: a workspace
// with an installed node_modules (over 20,000 files, hard-linked as `cp -al` or pnpm leave them),
// toolbelt's own `.toolbelt/`, a committed `.env`. Each runs through shell_exec in the real
// sandbox, read-only, and none prints the `.env` or `.toolbelt/` marker. The controls show the
// markers are there to print, and that without the sandbox the recursive reads ask.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { textOf } from '@toolbelt/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxWorks } from '../sandbox/__fixtures__/available.js';
import { cleanupWorkspaces, harness, type Harness } from './__fixtures__/harness.js';

const SECRET = 'ENV-MARKER-3f9a1c';
const STATE = 'STATE-MARKER-8b2e4d';
const here = dirname(fileURLToPath(import.meta.url));
// Not under /tmp: the sandbox gives every command its own /tmp.
const home = mkdtempSync(join(here, '.home-'));
const env = { ...process.env, HOME: home };

/** The checkout's installed node_modules (the nearest one above this file). */
function installed(): string {
  for (let d = here; dirname(d) !== d; d = dirname(d))
    if (existsSync(join(d, 'node_modules', 'zod', 'package.json'))) return join(d, 'node_modules');
  throw new Error('no installed node_modules above the test file');
}

function countFiles(dir: string): number {
  let n = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) n += e.isDirectory() ? countFiles(join(dir, e.name)) : 1;
  return n;
}

function git(cwd: string, ...args: string[]): void {
  execFileSync('git', ['-c', 'init.defaultBranch=main', '-c', 'user.name=t', '-c', 'user.email=t@x', ...args], {
    cwd,
    stdio: 'ignore',
  });
}

/** The repository: packages, sources, an ignored node_modules, .toolbelt/ and a committed .env. */
function populate(root: string): void {
  try {
    execFileSync('cp', ['-al', installed(), join(root, 'node_modules')], { stdio: 'ignore' });
  } catch {
    execFileSync('cp', ['-r', installed(), join(root, 'node_modules')], { stdio: 'ignore' });
  }
  for (const p of ['core', 'tools']) {
    mkdirSync(join(root, 'packages', p, 'src'), { recursive: true });
    writeFileSync(join(root, 'packages', p, 'package.json'), JSON.stringify({ name: `@demo/${p}` }));
    writeFileSync(join(root, 'packages', p, 'src', 'index.ts'), `export const defineTool = '${p}';\n// TODO: more\n`);
  }
  writeFileSync(join(root, '.gitignore'), 'node_modules/\n.toolbelt/\n');
  writeFileSync(join(root, '.env'), `API_KEY=${SECRET}\n`);
  mkdirSync(join(root, '.toolbelt'));
  writeFileSync(join(root, '.toolbelt', 'approvals.json'), `{"token":"${STATE}"}\n`);
  git(root, 'init', '-q');
  git(root, 'add', '-A');
  git(root, 'add', '-f', '.env');
  git(root, 'commit', '-qm', 'init');
}

let h: Harness;
beforeAll(() => {
  if (!sandboxWorks) return;
  h = harness({ mode: 'safe', env });
  populate(h.root);
}, 120_000);

afterAll(() => {
  cleanupWorkspaces();
  rmSync(home, { recursive: true, force: true });
});

/** What a search that finds nothing prints. */
const NOTHING = /^\(no output\)\n\[exit code 1\]$/;

const READS: [string, RegExp][] = [
  ['grep -rn TODO .', /packages\/core\/src\/index\.ts:2:\/\/ TODO/],
  [`grep -rn ${SECRET} .`, NOTHING],
  [`grep -rn ${STATE} .`, NOTHING],
  ['rg defineTool', /packages\/tools\/src\/index\.ts/],
  [`rg -uu ${SECRET}`, NOTHING],
  ['rg --files', /packages\/core\/package\.json/],
  ['git grep -n defineTool', /packages\/core\/src\/index\.ts:1:/],
  [`git grep -n ${SECRET}`, NOTHING],
  ['for f in packages/*/package.json; do jq .name "$f"; done', /^"@demo\/core"\n"@demo\/tools"\n/],
  ["find . -name '*.ts' -path './packages/*' | xargs wc -l", /4 total/],
  ['cat node_modules/zod/package.json', /"name": "zod"/],
];

describe.skipIf(!sandboxWorks)('reads in a real repository (installed node_modules, .toolbelt/, .env)', () => {
  it('has over 20,000 files installed, hard-linked, and the markers in place', () => {
    expect(countFiles(join(h.root, 'node_modules'))).toBeGreaterThan(20_000);
    expect(statSync(join(h.root, 'node_modules', 'zod', 'package.json')).nlink).toBeGreaterThan(1);
  });

  it.each(READS)('%s runs without asking, read-only, and prints no secret', async (command, expected) => {
    const before = h.requests.length;
    const r = await h.call('shell_exec', { command });
    const out = textOf(r);
    expect(h.requests.length, out).toBe(before);
    expect(r.metadata, out).toMatchObject({ sandbox: 'read-only', network: false });
    expect(out).toMatch(expected);
    expect(out).not.toContain(SECRET);
    expect(out).not.toContain(STATE);
  });

  // Controls: the markers are there for a command to print, and the check is what let them run.
  it('the markers are in the files: a person-approved yolo run without the sandbox prints them', async () => {
    const off = harness({ mode: 'yolo', env, config: { sandbox: { mode: 'off' } } });
    populate(off.root);
    const out = textOf(await off.call('shell_exec', { command: `grep -rn -e ${SECRET} -e ${STATE} .` }));
    expect(out).toContain(`.env:1:API_KEY=${SECRET}`);
    expect(out).toContain(STATE);
  }, 120_000);

  it('without the sandbox the recursive reads of the same tree ask', async () => {
    const off = harness({
      mode: 'safe',
      env,
      config: { sandbox: { mode: 'off' } },
      answers: [{ outcome: 'reject', message: 'no' }],
    });
    populate(off.root);
    await off.call('shell_exec', { command: 'grep -rn TODO .' });
    expect(off.requests).toHaveLength(1);
    expect(off.requests[0].reason).toMatch(/\.env|\.toolbelt/);
  }, 120_000);
});
