// The race of race.test.ts for what creates directories (write_file, copy_file, create_directory:
// `mkdir -p` of missing parents) and for list_directory: a directory on the path is swapped for a
// link to a directory outside during the call. Nothing may be created outside, and no name from
// outside may be listed. Each check is shown able to fail by a naive check-then-act control.
import { mkdirSync, readdirSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { makeHarness } from './__fixtures__/harness.js';
import { raceTree, startSwapper, stopSwapper } from './__fixtures__/swapper.js';
import { fsTools } from './index.js';
import { openHooks } from '../text/opened.js';

const h = makeHarness(fsTools());
afterAll(() => h.close());
afterEach(() => {
  delete openHooks.beforeOpen;
});

const OUTSIDE_NAME = 'MARKER-name-outside-the-workspace';

/** A fresh empty directory beside the workspace, and one holding a file named OUTSIDE_NAME. */
function outsideDir(name: string, marked = false): string {
  const dir = join(h.base, name);
  mkdirSync(dir);
  if (marked) writeFileSync(join(dir, OUTSIDE_NAME), 'x\n');
  return dir;
}

/** `name/d` is a real directory (holding `inside.txt`); swap() puts a link to `outside` in its place. */
function tree(name: string, outside: string) {
  const dir = join(h.root, name);
  mkdirSync(join(dir, 'd'), { recursive: true });
  writeFileSync(join(dir, 'd', 'inside.txt'), 'inside\n');
  symlinkSync(outside, join(dir, 'link'));
  return {
    swap() {
      renameSync(join(dir, 'd'), join(dir, 'real'));
      renameSync(join(dir, 'link'), join(dir, 'd'));
    },
  };
}

/** Swaps the tree at the n-th checked open of the call (1 = the first). */
function swapAtOpen(t: { swap(): void }, n: number): void {
  let seen = 0;
  openHooks.beforeOpen = () => {
    if (++seen !== n) return;
    delete openHooks.beforeOpen;
    t.swap();
  };
}

describe('mkdir -p of missing parents, with a directory swapped for a link during the call', () => {
  it('control: a naive check then mkdir -p creates directories outside', async () => {
    const outside = outsideDir('mk-naive-out');
    const t = tree('mk-naive', outside);
    const abs = await h.executor.workspace!.resolve('mk-naive/d/new/sub/file', 'write');
    t.swap();
    mkdirSync(dirname(abs), { recursive: true });
    expect(readdirSync(outside)).toEqual(['new']);
  });

  it('write_file, copy_file and create_directory refuse, at whichever open the swap lands', async () => {
    h.write('src.txt', 'copied\n');
    const calls = [
      ['write_file', (p: string) => ({ path: `${p}/d/new/sub/file`, content: 'x\n' })],
      ['copy_file', (p: string) => ({ source: 'src.txt', destination: `${p}/d/new/sub/file` })],
      ['create_directory', (p: string) => ({ path: `${p}/d/new/sub` })],
    ] as const;
    for (const [tool, input] of calls) {
      // Open 1: the nearest existing parent (d); 2 and 3: each new directory, through the one before.
      for (const n of [1, 2, 3]) {
        const name = `mk-${tool}-${n}`;
        const outside = outsideDir(`${name}-out`);
        const t = tree(name, outside);
        swapAtOpen(t, n);
        const r = await h.call(tool, input(name));
        expect(r.status, `${tool} at open ${n}: ${h.text(r)}`).toBe('error');
        expect(h.text(r), tool).toMatch(/changed while it was being opened|replaced by a symbolic link/);
        expect(readdirSync(outside), `${tool} at open ${n}`).toEqual([]);
      }
    }
  });

  it('3,000 write_file calls against a swapper process: nothing is ever created outside', async () => {
    const outside = outsideDir('mk-race-out');
    const dir = join(h.root, 'mk-race');
    raceTree(dir, outside);
    const swapper = await startSwapper(dir);
    const seen = { created: 0, refusedAtCheck: 0, refusedAtOpen: 0, missing: 0, other: 0, outsideNonEmpty: 0 };
    try {
      for (let i = 0; i < 3_000; i++) {
        const r = await h.call('write_file', { path: `mk-race/d/n${i}/sub/file`, content: 'x\n' });
        const text = h.text(r);
        if (readdirSync(outside).length) seen.outsideNonEmpty++;
        if (r.status === 'success') seen.created++;
        else if (/outside the workspace/.test(text)) seen.refusedAtCheck++;
        else if (/changed while it was being opened|replaced by a symbolic link/.test(text)) seen.refusedAtOpen++;
        else if (/does not exist|not found|no such/i.test(text)) seen.missing++;
        else if (++seen.other < 3) console.log(text);
      }
    } finally {
      await stopSwapper(swapper);
    }
    console.log('write_file mkdir -p race, 3,000 calls:', seen);
    expect(seen.outsideNonEmpty).toBe(0);
    expect(readdirSync(outside)).toEqual([]);
  }, 300_000);

  it('the same race against a naive check then mkdir -p (figures only: timing decides how often it escapes)', async () => {
    const outside = outsideDir('mk-race-naive-out');
    const dir = join(h.root, 'mk-race-naive');
    raceTree(dir, outside);
    const swapper = await startSwapper(dir);
    try {
      for (let i = 0; i < 3_000; i++) {
        const abs = await h.executor
          .workspace!.resolve(`mk-race-naive/d/n${i}/sub/file`, 'write')
          .catch(() => undefined);
        if (abs) {
          try {
            mkdirSync(dirname(abs), { recursive: true });
          } catch {
            // the swapper moved something away
          }
        }
      }
    } finally {
      await stopSwapper(swapper);
    }
    console.log(`naive check then mkdir -p, 3,000 calls: ${readdirSync(outside).length} directories created outside`);
  }, 300_000);
});

describe('list_directory with a directory swapped for a link during the call', () => {
  it('control: a naive check then readdir lists the names outside', async () => {
    const outside = outsideDir('ls-naive-out', true);
    const t = tree('ls-naive', outside);
    const abs = await h.executor.workspace!.resolve('ls-naive/d', 'list');
    t.swap();
    expect(readdirSync(abs)).toContain(OUTSIDE_NAME);
  });

  it('refuses when the listed directory is swapped right before its open', async () => {
    const t = tree('ls-top', outsideDir('ls-top-out', true));
    swapAtOpen(t, 1);
    const r = await h.call('list_directory', { path: 'ls-top/d' });
    expect(r.status).toBe('error');
    expect(h.text(r)).not.toContain(OUTSIDE_NAME);
  });

  it('does not expand a subdirectory swapped right before it is opened', async () => {
    const t = tree('ls-sub', outsideDir('ls-sub-out', true));
    swapAtOpen(t, 2);
    const r = await h.call('list_directory', { path: 'ls-sub', depth: 2 });
    expect(r.status).toBe('success');
    expect(h.text(r)).not.toContain(OUTSIDE_NAME);
  });

  it('6,000 calls against a swapper process: no name from outside is ever listed', async () => {
    const outside = outsideDir('ls-race-out', true);
    const dir = join(h.root, 'ls-race');
    writeFileSync(join(raceTree(dir, outside), 'inside.txt'), 'inside\n');
    const swapper = await startSwapper(dir);
    const seen = { listedInside: 0, refused: 0, escaped: 0 };
    try {
      for (let i = 0; i < 6_000; i++) {
        // Half list d itself, half its parent two levels deep (d is then opened from the parent).
        const r = await h.call('list_directory', i % 2 ? { path: 'ls-race/d' } : { path: 'ls-race', depth: 2 });
        const text = h.text(r);
        if (text.includes(OUTSIDE_NAME)) seen.escaped++;
        else if (r.status === 'success' && text.includes('inside.txt')) seen.listedInside++;
        else seen.refused++;
      }
    } finally {
      await stopSwapper(swapper);
    }
    console.log('list_directory race, 6,000 calls:', seen);
    expect(seen.escaped).toBe(0);
  }, 300_000);
});
