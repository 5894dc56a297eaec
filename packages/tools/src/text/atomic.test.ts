import { spawn } from 'node:child_process';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildSync } from 'esbuild';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { atomicWrite, replaceAtomically } from './atomic.js';
import { sweepLeftoverTemps } from './leftovers.js';

const dir = mkdtempSync(join(tmpdir(), 'tb-atomic-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('atomicWrite', () => {
  it('writes new files and replaces old ones', async () => {
    const p = join(dir, 'a.txt');
    await atomicWrite(p, 'one');
    await atomicWrite(p, 'two');
    expect(readFileSync(p, 'utf8')).toBe('two');
    expect(readdirSync(dir).filter((n) => n.endsWith('.tmp'))).toEqual([]);
  });

  it('keeps the permission bits of the file it replaces', async () => {
    const p = join(dir, 'script.sh');
    writeFileSync(p, '#!/bin/sh\n', { mode: 0o751 });
    await atomicWrite(p, '#!/bin/sh\necho hi\n');
    expect(statSync(p).mode & 0o777).toBe(0o751);
  });

  it('replaces a symlink at the target instead of writing through it', async () => {
    const outside = join(dir, 'outside.txt');
    writeFileSync(outside, 'secret');
    const link = join(dir, 'link.txt');
    symlinkSync(outside, link);
    await atomicWrite(link, 'new');
    expect(readFileSync(outside, 'utf8')).toBe('secret');
    expect(lstatSync(link).isSymbolicLink()).toBe(false);
    expect(readFileSync(link, 'utf8')).toBe('new');
  });

  it('leaves the target untouched and no temp file when filling fails', async () => {
    const p = join(dir, 'keep.txt');
    writeFileSync(p, 'original');
    await expect(
      replaceAtomically(p, async (fh) => {
        await fh.writeFile('partial');
        throw new Error('disk on fire');
      }),
    ).rejects.toThrow('disk on fire');
    expect(readFileSync(p, 'utf8')).toBe('original');
    expect(readdirSync(dir).filter((n) => n.startsWith('.keep.txt'))).toEqual([]);
  });
});

// A child process writes A and B alternately, forever; we SIGKILL it at random moments. Whatever
// instant the kill lands, the file must hold all of A or all of B.
describe('crash safety', () => {
  const SIZE = 2 * 1024 * 1024;
  const moduleDir = mkdtempSync(join(dir, 'mod-'));
  // atomic.ts with what it imports, as one module a plain child process can load.
  buildSync({
    entryPoints: [fileURLToPath(new URL('./atomic.ts', import.meta.url))],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile: join(moduleDir, 'atomic.mjs'),
    logLevel: 'silent',
  });
  const writer = (kind: 'atomic' | 'naive') => `
    import { atomicWrite } from './atomic.mjs';
    import { writeFile } from 'node:fs/promises';
    const [target] = process.argv.slice(2);
    const A = Buffer.alloc(${SIZE}, 'a');
    const B = Buffer.alloc(${SIZE}, 'b');
    const write = ${kind === 'atomic' ? 'atomicWrite' : 'writeFile'};
    process.stdout.write('go\\n');
    for (let i = 0; ; i++) await write(target, i % 2 ? A : B);
  `;
  writeFileSync(join(moduleDir, 'atomic-writer.mjs'), writer('atomic'));
  writeFileSync(join(moduleDir, 'naive-writer.mjs'), writer('naive'));

  async function killMidWrite(script: string, target: string, delayMs: number): Promise<void> {
    const child = spawn(process.execPath, [join(moduleDir, script), target], { stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
    await new Promise((r) => setTimeout(r, delayMs));
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGKILL');
    await exited;
  }

  function classify(target: string): 'old-or-new' | 'torn' {
    const data = readFileSync(target);
    if (data.length !== SIZE) return 'torn';
    const first = data[0];
    if (first !== 0x61 && first !== 0x62) return 'torn';
    return data.every((b) => b === first) ? 'old-or-new' : 'torn';
  }

  it('never leaves a torn file when the writer is killed mid-write', async () => {
    const target = join(moduleDir, 'target.bin');
    writeFileSync(target, Buffer.alloc(SIZE, 'a'));
    let interruptedMidWrite = 0;
    for (let i = 0; i < 30; i++) {
      await killMidWrite('atomic-writer.mjs', target, (i * 7) % 40);
      expect(classify(target), `after kill #${i + 1}`).toBe('old-or-new');
      const leftovers = readdirSync(moduleDir).filter((n) => n.startsWith('.target.bin.'));
      if (leftovers.length) interruptedMidWrite++;
      for (const n of leftovers) rmSync(join(moduleDir, n));
    }
    // The kills must really have landed inside writes (a temp file left behind), or the test proves nothing.
    expect(interruptedMidWrite).toBeGreaterThan(0);
  }, 60_000);

  it('names its temp files as its own and removes those of a killed writer at the next write in their directory', async () => {
    const killed = join(moduleDir, 'killed');
    mkdirSync(killed);
    const target = join(killed, 'target.bin');
    writeFileSync(target, Buffer.alloc(SIZE, 'a'));
    let leftovers: string[] = [];
    for (let i = 0; i < 30 && !leftovers.length; i++) {
      await killMidWrite('atomic-writer.mjs', target, (i * 7) % 40);
      leftovers = readdirSync(killed).filter((n) => n !== 'target.bin');
    }
    expect(leftovers.length).toBeGreaterThan(0);
    for (const n of leftovers) expect(n).toMatch(/^\.target\.bin\.toolbelt-\d+-[0-9a-f]{12}\.tmp$/);
    // The control: a temp file of a writer that is alive (this process's parent's pid) stays.
    const live = `.other.txt.toolbelt-${process.ppid}-0123456789ab.tmp`;
    writeFileSync(join(killed, live), 'in progress');
    await atomicWrite(join(killed, 'other.txt'), 'next');
    expect(readdirSync(killed).sort()).toEqual([live, 'other.txt', 'target.bin'].sort());
  }, 60_000);

  it('removes the leftovers of killed writers across a workspace at start, and no other file', async () => {
    const root = join(moduleDir, 'swept');
    mkdirSync(join(root, 'a/b'), { recursive: true });
    mkdirSync(join(root, 'node_modules'), { recursive: true });
    const dead = await new Promise<number>((resolve) => {
      const child = spawn(process.execPath, ['-e', '0']);
      child.once('exit', () => resolve(child.pid!));
    });
    const names = {
      gone: join(root, 'a/b', `.x.txt.toolbelt-${dead}-0123456789ab.tmp`),
      older: join(root, `.y.txt.${dead}.0123456789ab.tmp`),
      live: join(root, `.z.txt.toolbelt-${process.ppid}-0123456789ab.tmp`),
      mine: join(root, 'a', 'notes.tmp'),
      skipped: join(root, 'node_modules', `.w.toolbelt-${dead}-0123456789ab.tmp`),
    };
    for (const p of Object.values(names)) writeFileSync(p, 'x');
    expect(await sweepLeftoverTemps([root])).toBe(2);
    expect(
      Object.entries(names)
        .filter(([, p]) => existsSync(p))
        .map(([k]) => k),
    ).toEqual(['live', 'mine', 'skipped']);
  });

  it('detects torn files from a plain writeFile writer (the harness can fail)', async () => {
    const target = join(moduleDir, 'naive.bin');
    writeFileSync(target, Buffer.alloc(SIZE, 'a'));
    let torn = 0;
    for (let i = 0; i < 15 && torn === 0; i++) {
      await killMidWrite('naive-writer.mjs', target, (i * 7) % 40);
      if (classify(target) === 'torn') torn++;
    }
    expect(torn).toBeGreaterThan(0);
  }, 60_000);
});
