// Secret files in the workspace roots read as empty inside every sandbox, found by name however
// deep, through symbolic links, after a command moved them, and (within a budget) in large trees.
// Each secret holds a unique marker; a control without the hidden paths shows the markers leaking.
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bashInvocation } from '../process/limits.js';
import { sensitiveReason } from '../workspace/sensitive.js';
import { bwrapInvocation } from './bwrap.js';
import { Sandbox } from './sandbox.js';
import { sandboxSettings } from './settings.js';
import { sandboxWorks } from './__fixtures__/available.js';
import { cleanupScratch, marker, plant, runConfined, runInvocation, scratchDir } from './__fixtures__/confined.js';

const SECRET_FILES = [
  '.env',
  '.env.local',
  'id_rsa',
  'sub/credentials.json',
  '.envrc',
  'kubeconfig',
  'deep/a/b/c/.npmrc',
  'keys/server.pem',
  '.kube/config',
  'prod.credentials',
];
const markers = Object.fromEntries([...SECRET_FILES, 'outside/.env'].map((f) => [f, marker(f.replace(/\W/g, '_'))]));
const VISIBLE = marker('visible');
let ws: string;
let home: string;
const settings = () => sandboxSettings(undefined, { env: { HOME: home } });

beforeAll(() => {
  ws = scratchDir('tb-secrets-ws-');
  home = scratchDir('tb-secrets-home-');
  const out = scratchDir('tb-secrets-out-');
  plant(ws, {
    ...Object.fromEntries(SECRET_FILES.map((f) => [f, `${markers[f]}\n`])),
    'notes.txt': `${VISIBLE}\n`,
    '.env.example': 'KEY=\n',
  });
  // Directories named like secret files are no secret: a module, a virtualenv.
  plant(ws, { 'lib/credentials/index.js': `${VISIBLE}-module\n`, 'py/.env/bin/activate': `${VISIBLE}-venv\n` });
  // Installed packages are no secret either: CA bundles and test fixtures that programs need.
  plant(ws, {
    'node_modules/pkg/test/key.pem': `${VISIBLE}-fixture\n`,
    '.venv/lib/python3.11/site-packages/certifi/cacert.pem': `${VISIBLE}-ca\n`,
  });
  plant(out, { '.env': `${markers['outside/.env']}\n` });
  symlinkSync(join(ws, 'sub', 'credentials.json'), join(ws, 'link-to-secret'));
  symlinkSync(join(out, '.env'), join(ws, 'innocent.txt'));
});
afterAll(cleanupScratch);

const readers =
  'cat .env .env.local id_rsa .envrc kubeconfig link-to-secret innocent.txt sub/credentials.json; grep -r . .; tar c . | cat; find . -type f -exec cat {} +; cat .kube/config';
const leaked = (out: string) =>
  Object.entries(markers)
    .filter(([, m]) => out.includes(m))
    .map(([f]) => f);

describe('secret names', () => {
  it('covers the names the sandbox hides, for the file tools too', () => {
    for (const name of [
      '.envrc',
      'kubeconfig',
      'prod.kubeconfig',
      'x.credentials',
      'id_rsa_work',
      'id_ed25519.pub',
      '.vault-token',
      '.my.cnf',
      '.kube/config',
      '.git-credentials',
    ]) {
      expect(sensitiveReason(name, 'read'), name).toBeDefined();
    }
    for (const name of ['.env.example', 'notes.txt', 'identity.ts', 'credentials.md'])
      expect(sensitiveReason(name, 'read'), name).toBeUndefined();
  });
});

describe.skipIf(!sandboxWorks)('secrets in the roots', () => {
  it.each([true, false])('read as empty (readOnly: %s): cat, grep -r, tar, find -exec', async (readOnly) => {
    const c = await new Sandbox(settings()).confine({ roots: [ws], cwd: ws, readOnly, network: false });
    const r = await runConfined(c, readers);
    expect(leaked(r.out)).toEqual([]);
    expect(r.out).toContain(VISIBLE);
    expect(r.out).toContain('KEY='); // .env.example is a template, not a secret
    expect(r.out).toContain(`${VISIBLE}-module`);
    expect(r.out).toContain(`${VISIBLE}-venv`);
    expect(r.out).toContain(`${VISIBLE}-fixture`);
    expect(r.out).toContain(`${VISIBLE}-ca`);
    expect(c.hidden).toEqual(
      expect.arrayContaining([join(ws, '.env'), join(ws, 'id_rsa'), join(ws, '.kube'), join(ws, 'keys', 'server.pem')]),
    );
  });

  it('control: the same commands without the hidden paths show every marker', async () => {
    const c = await new Sandbox(settings()).confine({ roots: [ws], cwd: ws, readOnly: true, network: false });
    const r = await runInvocation(
      bwrapInvocation(c.bwrap!.path, { ...c.bwrap!.profile, hidden: [] }, bashInvocation(readers)),
    );
    expect(leaked(r.out).sort()).toEqual(Object.keys(markers).sort());
  });

  it('hides a secret created or moved since the last command, even when the mover sets the times back', async () => {
    const sandbox = new Sandbox(settings());
    const write = () => sandbox.confine({ roots: [ws], cwd: ws, readOnly: false, network: false });
    plant(ws, { 'conf/app.txt': 'x\n' });
    expect((await runConfined(await write(), 'true')).code).toBe(0);
    const fresh = marker('fresh');
    plant(ws, { 'conf/.env': `${fresh}\n` }); // the user adds one
    expect((await runConfined(await write(), 'cat conf/.env')).out).not.toContain(fresh);
    // A command moves the directory holding it and sets the times of the root back.
    const moved = await runConfined(
      await write(),
      't=$(stat -c %y .) && mv conf conf2 && touch -d "$t" . && echo moved',
    );
    expect(moved.stdout).toContain('moved');
    expect((await runConfined(await write(), 'cat conf2/.env')).out).not.toContain(fresh);
  });

  it('lets the user unhide one with "!path", but never toolbelt\'s own config', async () => {
    writeFileSync(join(ws, 'toolbelt.config.json'), `{"x":"${markers['.env']}-config"}`);
    const s = sandboxSettings(
      { hidden: [`!${join(ws, '.env')}`, `!${join(ws, 'toolbelt.config.json')}`] },
      { env: { HOME: home } },
    );
    const c = await new Sandbox(s).confine({ roots: [ws], cwd: ws, readOnly: true, network: false });
    const r = await runConfined(c, 'cat .env; cat toolbelt.config.json');
    expect(r.out).toContain(markers['.env']);
    expect(r.out).not.toContain('-config');
  });

  it('stops at its budget, says so, hides what it found, and finds the rest in later commands', async () => {
    const big = scratchDir('tb-secrets-big-');
    for (let i = 0; i < 30; i++) mkdirSync(join(big, `d${i}`, 'e', 'f'), { recursive: true });
    const deep = marker('deep');
    const shallow = marker('shallow');
    plant(big, { '.env': `${shallow}\n`, 'd29/e/f/.env': `${deep}\n` });
    const sandbox = new Sandbox(settings(), { scanBudget: { entries: 40, ms: 60_000 } });
    const read = () => sandbox.confine({ roots: [big], cwd: big, readOnly: true, network: false });
    const first = await read();
    expect(first.warnings?.[0]).toMatch(/^\[sandbox: the search for secret files .* stopped after \d+ entries/);
    expect((await runConfined(first, 'cat .env')).out).not.toContain(shallow);
    let c = first;
    for (let i = 0; i < 20 && c.warnings; i++) c = await read();
    expect(c.warnings).toBeUndefined();
    expect((await runConfined(c, 'cat .env d29/e/f/.env')).out).not.toMatch(new RegExp(`${deep}|${shallow}`));
  });
});
