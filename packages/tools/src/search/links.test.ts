// grep and glob on hard-linked trees return what rg returns: a `cp -al` copy inside the workspace
// and a pnpm store layout (by hand, and from a real `pnpm install` when pnpm is on PATH) read
// normally; a `cp -al` copy of a tree outside is withheld and counted, never silently dropped.
import { execFileSync } from 'node:child_process';
import { cpSync, linkSync, lstatSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { makeHarness } from '../fs/__fixtures__/harness.js';
import { readFile } from '../fs/read_file.js';
import { copyLinked, pnpmLayout, rgFiles, rgList, rgPath, storeName } from '../workspace/__fixtures__/links.js';
import { trustedProgram } from '../process/programs.js';
import { WorkspaceResources } from '../resources/workspace-resources.js';
import { WorkspaceGuard } from '../workspace/guard.js';
import { createGrep, glob } from './index.js';

const engines = rgPath ? (['rg', 'js'] as const) : (['js'] as const);
/** Real source files to search: this directory's own. */
const sources = dirname(fileURLToPath(import.meta.url));
const PATTERN = 'Collector';

function listed(text: string): string[] {
  return text.split('\n\n')[0].split('\n').filter(Boolean).sort();
}

/** glob's answer back to paths: a long one is grouped under directory lines ("dir/" then "  name"). */
function globbed(text: string): string[] {
  const out: string[] = [];
  let dir = '';
  for (const line of text.split('\n')) {
    if (line.startsWith('  ')) out.push(dir === './' ? line.slice(2) : dir + line.slice(2));
    else if (line.endsWith('/')) dir = line;
    else if (line) out.push(line);
  }
  return out.sort();
}

describe.each(engines)('grep (%s engine) and glob on hard-linked trees', (engine) => {
  const h = makeHarness([createGrep({ engine }), glob, readFile]);
  afterAll(() => h.close());
  cpSync(sources, join(h.root, 'a'), { recursive: true });
  copyLinked(join(h.root, 'a'), join(h.root, 'b'));
  const outside = join(h.base, 'outside-src');
  cpSync(sources, outside, { recursive: true });
  const grep = (input: Record<string, unknown>) =>
    h.call('grep', {
      pattern: PATTERN,
      output_mode: 'files_with_matches',
      include_ignored: true,
      max_results: 5000,
      ...input,
    });

  it('a cp -al copy inside the workspace: every name is inside, so grep and glob return what rg returns', async () => {
    const r = await grep({});
    expect(r.metadata).not.toHaveProperty('withheld');
    expect(listed(h.text(r))).toEqual(rgFiles(h.root, PATTERN));
    const all = await h.call('glob', { pattern: '**/*', include_ignored: true, limit: 2000 });
    expect(globbed(h.text(all))).toEqual(rgList(h.root));
    expect(h.text(await h.call('read_file', { path: 'b/linked.ts' }))).toContain('settleLinked');
  });

  it('max_results still holds when hard-linked hits join after the search', async () => {
    const r = await grep({ max_results: 3 });
    expect(listed(h.text(r))).toEqual(rgFiles(h.root, PATTERN).slice(0, 3));
    expect(r.metadata).toMatchObject({ files: 3, capped: true });
  });

  it('a cp -al copy of a tree outside: its hits are withheld and counted (rg would print them), read_file refuses', async () => {
    copyLinked(outside, join(h.root, 'c'));
    const r = await grep({});
    const all = rgFiles(h.root, PATTERN);
    const fromOutside = all.filter((f) => f.startsWith('c/'));
    expect(fromOutside.length).toBeGreaterThan(3);
    expect(listed(h.text(r))).toEqual(all.filter((f) => !f.startsWith('c/')));
    expect(r.metadata).toMatchObject({ withheld: fromOutside.length });
    expect(h.text(r)).toContain(
      `${fromOutside.length} hard-linked files matched but are not shown: another name of theirs may be outside the workspace`,
    );
    expect((await h.call('read_file', { path: 'c/linked.ts' })).error?.code).toBe('INVALID_PARAMS');
    // glob lists names, which are inside: the same as rg.
    const names = await h.call('glob', { pattern: 'c/**', include_ignored: true, limit: 2000 });
    expect(globbed(h.text(names))).toEqual(rgList(h.root).filter((f) => f.startsWith('c/')));
  });
});

describe.each(engines)('grep (%s engine) on a pnpm store layout', (engine) => {
  const h = makeHarness([createGrep({ engine }), readFile]);
  afterAll(() => h.close());
  const store = join(h.base, 'pnpm-store');
  const { files } = pnpmLayout(h.root, store, {
    alpha: { 'index.js': 'export const needle = 1;\n', 'bin/alpha': '#!/usr/bin/env node\n// needle\n' },
    beta: { 'lib/beta.js': 'module.exports = "needle";\n', 'README.md': 'no match here\n' },
  });
  // Controls: a file in .pnpm hard-linked to a file outside whose store name is not its hash, and
  // one whose store name is right but is another inode (a copy, not a link).
  const secret = join(h.base, 'secret.txt');
  writeFileSync(secret, 'needle: SECRET-OUT\n');
  const forged = join(h.root, 'node_modules/.pnpm/evil@1.0.0/node_modules/evil/index.js');
  mkdirSync(dirname(forged), { recursive: true });
  linkSync(secret, forged);
  const misnamed = storeName(join(store, 'v10'), 'another content\n');
  mkdirSync(dirname(misnamed), { recursive: true });
  linkSync(secret, misnamed);
  const twin = join(h.base, 'twin.txt');
  writeFileSync(twin, 'needle: twin\n');
  const copied = storeName(join(store, 'v10'), 'needle: twin\n');
  mkdirSync(dirname(copied), { recursive: true });
  cpSync(twin, copied);
  linkSync(twin, join(h.root, 'node_modules/.pnpm/evil@1.0.0/node_modules/evil/twin.js'));

  it('store copies are found as rg finds them; the forged ones are withheld and counted', async () => {
    const r = await h.call('grep', { pattern: 'needle', output_mode: 'files_with_matches' });
    const expected = Object.keys(files).filter((f) => files[f].includes('needle'));
    expect(listed(h.text(r))).toEqual(expected.sort());
    expect(rgFiles(h.root, 'needle')).toEqual(
      [...expected, relative(h.root, forged), 'node_modules/.pnpm/evil@1.0.0/node_modules/evil/twin.js'].sort(),
    );
    expect(r.metadata).toMatchObject({ withheld: 2 });
    expect(h.text(r)).not.toContain('SECRET-OUT');
  });

  it('read_file reads a store copy and refuses the forged ones', async () => {
    expect(
      h.text(await h.call('read_file', { path: 'node_modules/.pnpm/alpha@1.0.0/node_modules/alpha/bin/alpha' })),
    ).toContain('// needle');
    expect((await h.call('read_file', { path: relative(h.root, forged) })).error?.code).toBe('INVALID_PARAMS');
    expect(
      (await h.call('read_file', { path: 'node_modules/.pnpm/evil@1.0.0/node_modules/evil/twin.js' })).error?.code,
    ).toBe('INVALID_PARAMS');
  });

  it('workspace resources serve a store copy and refuse the forged one', async () => {
    const resources = new WorkspaceResources({ guard: new WorkspaceGuard({ roots: [h.root] }) });
    const copy = await resources.read(
      pathToFileURL(join(h.root, 'node_modules/.pnpm/beta@1.0.0/node_modules/beta/lib/beta.js')).href,
    );
    expect(copy).toMatchObject({ text: 'module.exports = "needle";\n' });
    await expect(resources.read(pathToFileURL(forged).href)).rejects.toThrow(
      /has 3 hard links; one may point outside the workspace/,
    );
  });
});

/** pnpm from PATH, or TOOLBELT_TEST_PNPM (say, one installed with `npm install --prefix /tmp/p pnpm`). */
const pnpm = process.env.TOOLBELT_TEST_PNPM ?? trustedProgram('pnpm');
describe.skipIf(!pnpm || !rgPath)('grep on a real pnpm install (its default store, offline when it can)', () => {
  const h = makeHarness([createGrep(), readFile]);
  afterAll(() => h.close());
  h.write(
    'package.json',
    JSON.stringify({ name: 'probe', private: true, dependencies: { picomatch: '4.0.2', semver: '7.6.3' } }),
  );

  it('finds what rg finds in node_modules and reads a dependency through its symlink', async () => {
    execFileSync(pnpm!, ['install', '--prefer-offline', '--ignore-scripts', '--reporter=silent'], {
      cwd: h.root,
      stdio: 'ignore',
      timeout: 120_000,
    });
    // What makes this test mean something: the installed files are hard links to the store.
    expect(lstatSync(realpathSync(join(h.root, 'node_modules/semver/package.json'))).nlink).toBeGreaterThan(1);
    const r = await h.call('grep', {
      pattern: 'function',
      output_mode: 'files_with_matches',
      include_ignored: true,
      max_results: 5000,
    });
    expect(r.metadata).not.toHaveProperty('withheld');
    expect(listed(h.text(r))).toEqual(rgFiles(h.root, 'function'));
    const read = await h.call('read_file', { path: 'node_modules/semver/package.json' });
    expect(h.text(read)).toContain('"name": "semver"');
    expect(readFileSync(join(h.root, 'node_modules/semver/package.json'), 'utf8')).toContain('semver');
  }, 180_000);
});
