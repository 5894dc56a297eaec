// The attack the hard-link rule exists for: a file outside the roots (another user's, root's),
// hard-linked under a name inside. No tool shows its content, whatever the engine or output mode.
// Controls: a copy of the same file inside is found and read (so the checks can see a leak), and
// once the outside name is gone the same link reads normally (so the rule is what held it back).
import { chmodSync, chownSync, copyFileSync, linkSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { makeHarness } from '../fs/__fixtures__/harness.js';
import { readFile } from '../fs/read_file.js';
import { createGrep, glob } from '../search/index.js';
import { rgPath } from './__fixtures__/links.js';
import { NOBODY } from '../sandbox/__fixtures__/nobody.js';

const engines = rgPath ? (['rg', 'js'] as const) : (['js'] as const);
const asRoot = process.getuid?.() === 0;
const h = makeHarness([
  ...engines.map((engine) => ({ ...createGrep({ engine }), name: `grep_${engine}` })),
  readFile,
  glob,
]);
const outside = mkdtempSync('/var/tmp/tb-links-');
afterAll(async () => {
  rmSync(outside, { recursive: true, force: true });
  await h.close();
});

/** A secret file in /var/tmp owned by `uid`, hard-linked into the workspace as `name`; false when they are on different file systems. */
function plant(name: string, uid: number, secret: string): string | false {
  const file = join(outside, `${name}.secret`);
  writeFileSync(file, `${secret}\n`);
  chmodSync(file, 0o600);
  chownSync(file, uid, uid);
  try {
    linkSync(file, join(h.root, name));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EXDEV') return false;
    throw err;
  }
  return file;
}

const owners = [
  ['another user', NOBODY, 'SHADOW-OF-NOBODY'],
  ['root', 0, 'SHADOW-OF-ROOT'],
] as const;

describe.skipIf(!asRoot)('a hard link in the roots to a file in /var/tmp (run as root)', () => {
  it.each(owners)('owned by %s: grep, read_file and glob never show its content', async (_who, uid, secret) => {
    const name = `linked-${uid}.txt`;
    const file = plant(name, uid, secret);
    if (!file) return void console.warn('skipped: /var/tmp and the workspace are on different file systems');
    const calls = [
      ...engines.flatMap((e) =>
        ['content', 'count', 'files_with_matches'].map((mode) =>
          h.call(`grep_${e}`, { pattern: 'SHADOW', output_mode: mode, include_ignored: true }),
        ),
      ),
      ...engines.map((e) => h.call(`grep_${e}`, { pattern: 'SHADOW', path: name })),
      h.call('read_file', { path: name }),
      h.call('glob', { pattern: '**/*' }),
    ];
    for (const r of await Promise.all(calls)) expect(JSON.stringify(r)).not.toContain(secret);
    expect((await h.call('read_file', { path: name })).error?.code).toBe('INVALID_PARAMS');

    // Control 1: the same content as a copy inside is found and read, so the checks above can see a leak.
    copyFileSync(file, join(h.root, `copy-${uid}.txt`));
    for (const e of engines) expect(JSON.stringify(await h.call(`grep_${e}`, { pattern: 'SHADOW' }))).toContain(secret);
    expect(h.text(await h.call('read_file', { path: `copy-${uid}.txt` }))).toContain(secret);
    unlinkSync(join(h.root, `copy-${uid}.txt`));

    // Control 2: with the outside name gone, the link is the file's only name and reads normally.
    unlinkSync(file);
    expect(h.text(await h.call('read_file', { path: name }))).toContain(secret);
    unlinkSync(join(h.root, name));
  });
});
