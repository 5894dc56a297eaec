// The workspace is untrusted: a process in it may swap a directory for a link to a directory
// outside while a file tool works. The guard checks a path, then the tool opens it; the file tools
// must check what they opened (text/opened.ts), so a swap in between is refused, never read or
// written through.
import {
  mkdirSync,
  openSync,
  readFileSync,
  readSync,
  closeSync,
  renameSync,
  symlinkSync,
  writeFileSync,
  existsSync,
  readdirSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { ToolContext } from '@toolbelt/core';
import { makeHarness } from './__fixtures__/harness.js';
import { startSwapper, stopSwapper } from './__fixtures__/swapper.js';
import { fsTools } from './index.js';
import { readFile } from './read_file.js';
import { openHooks } from '../text/opened.js';
import { READ_FLAGS } from '../workspace/special.js';

const MARKER = 'MARKER-outside-the-workspace';
const h = makeHarness(fsTools());
const outside = join(h.base, 'outside');
mkdirSync(outside);
writeFileSync(join(outside, 'shadow'), `${MARKER}\n`);
afterAll(() => h.close());
afterEach(() => {
  delete openHooks.beforeOpen;
});

const ctx = (): ToolContext => ({
  callId: 'race',
  tool: 'read_file',
  signal: new AbortController().signal,
  sessionId: 'race',
  workspace: h.workspace,
  state: new Map(),
  config: {},
  emit: () => {},
  elicit: async () => ({ action: 'decline' }),
});

/** `d` is a real directory holding `shadow`; `swap()` puts a link to the outside directory in its place. */
function tree(name: string) {
  const dir = join(h.root, name);
  mkdirSync(join(dir, 'd'), { recursive: true });
  writeFileSync(join(dir, 'd', 'shadow'), 'inside\n');
  symlinkSync(outside, join(dir, 'link'));
  return {
    dir,
    swap() {
      renameSync(join(dir, 'd'), join(dir, 'real'));
      renameSync(join(dir, 'link'), join(dir, 'd'));
    },
  };
}

/** The old code path: the guard's check, then an open of the checked path, nothing verified after. */
async function naiveRead(path: string, between: () => void): Promise<string> {
  const abs = await h.workspace.resolve(path, 'read');
  between();
  const fd = openSync(abs, READ_FLAGS);
  try {
    const buf = Buffer.alloc(4096);
    return buf.subarray(0, readSync(fd, buf, 0, buf.length, 0)).toString();
  } finally {
    closeSync(fd);
  }
}

describe('a directory swapped for a link between the check and the open', () => {
  it('control: a naive check-then-open reads the file outside', async () => {
    const t = tree('naive');
    expect(await naiveRead('naive/d/shadow', () => t.swap())).toContain(MARKER);
  });

  it('read_file checks the descriptor it opened and refuses', async () => {
    const t = tree('checked');
    // prepare() resolves and checks the path; the swap lands before run() opens it.
    const inv = await readFile.prepare!({ path: 'checked/d/shadow' }, ctx());
    t.swap();
    await expect(inv.run()).rejects.toThrow(/changed while it was being opened/);
  });

  it('edit_file, write_file and append_file refuse a swap right before their open', async () => {
    for (const [tool, input] of [
      ['edit_file', { old_string: 'inside', new_string: 'edited' }],
      ['write_file', { content: 'written\n' }],
      ['append_file', { content: 'appended\n' }],
    ] as const) {
      const t = tree(`w-${tool}`);
      openHooks.beforeOpen = () => {
        delete openHooks.beforeOpen;
        t.swap();
      };
      const r = await h.call(tool, { path: `w-${tool}/d/shadow`, ...input });
      expect(r.status, tool).toBe('error');
      expect(h.text(r), tool).toMatch(/changed while it was being opened/);
      expect(readFileSync(join(outside, 'shadow'), 'utf8'), tool).toBe(`${MARKER}\n`);
      expect(readdirSync(outside), tool).toEqual(['shadow']);
    }
  });

  it('delete_file and move_file act through the checked directory, never through the new link', async () => {
    for (const [tool, input] of [
      ['delete_file', { path: 'x-delete_file/d/shadow' }],
      ['move_file', { source: 'x-move_file/d/shadow', destination: 'x-move_file/moved' }],
    ] as const) {
      const t = tree(`x-${tool}`);
      openHooks.beforeOpen = () => {
        delete openHooks.beforeOpen;
        t.swap();
      };
      const r = await h.call(tool, input);
      expect(r.status, tool).toBe('error');
      expect(existsSync(join(outside, 'shadow')), tool).toBe(true);
    }
  });
});

describe('read_file against a real swapper process', () => {
  it('10,000 calls: the outside file is never returned', async () => {
    const dir = join(h.root, 'race');
    mkdirSync(join(dir, 'real'), { recursive: true });
    writeFileSync(join(dir, 'real', 'shadow'), 'inside\n');
    symlinkSync(outside, join(dir, 'link'));
    const swapper = await startSwapper(dir);
    const seen = { inside: 0, refusedAtCheck: 0, refusedAtOpen: 0, missing: 0, escaped: 0, other: 0 };
    try {
      for (let i = 0; i < 10_000; i++) {
        const r = await h.call('read_file', { path: 'race/d/shadow' });
        const text = h.text(r);
        if (text.includes(MARKER)) seen.escaped++;
        else if (r.status === 'success') seen.inside++;
        else if (/changed while it was being opened/.test(text)) seen.refusedAtOpen++;
        else if (/outside the workspace/.test(text)) seen.refusedAtCheck++;
        else if (/does not exist|not found|no such/i.test(text)) seen.missing++;
        else {
          seen.other++;
          if (seen.other < 3) console.log(text);
        }
      }
    } finally {
      await stopSwapper(swapper);
    }
    console.log('read_file race, 10,000 calls:', seen);
    expect(seen.escaped).toBe(0);
    // The swapper really ran: calls saw the directory, the link and nothing at all.
    expect(seen.inside + seen.refusedAtCheck + seen.refusedAtOpen + seen.missing + seen.other).toBe(10_000);
  }, 300_000);

  it('the same race against the naive check-then-open (figures only: timing decides how often it escapes)', async () => {
    const dir = join(h.root, 'race-naive');
    mkdirSync(join(dir, 'real'), { recursive: true });
    writeFileSync(join(dir, 'real', 'shadow'), 'inside\n');
    symlinkSync(outside, join(dir, 'link'));
    const swapper = await startSwapper(dir);
    let escaped = 0;
    try {
      for (let i = 0; i < 10_000; i++) {
        const text = await naiveRead('race-naive/d/shadow', () => {}).catch(() => '');
        if (text.includes(MARKER)) escaped++;
      }
    } finally {
      await stopSwapper(swapper);
    }
    console.log(`naive check-then-open, 10,000 calls: ${escaped} escapes`);
  }, 300_000);
});
