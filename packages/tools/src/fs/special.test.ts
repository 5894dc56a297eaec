// Every file tool against a named pipe, a socket, a hard link to a file outside the workspace and
// symlinks out of it: refused promptly with a reason, nothing blocks, nothing outside is read or
// changed. Calls that only rename or unlink (move_file, delete_file) take pipes and hard links.
import { existsSync, linkSync, lstatSync, readFileSync } from 'node:fs';
import type { Server } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ToolResult } from '@toolbelt/core';
import { listenSocket, mkfifo, plantTraps, SECRET, withoutBlocking } from '../workspace/__fixtures__/special.js';
import { makeHarness } from './__fixtures__/harness.js';
import { fsTools } from './index.js';

const h = makeHarness(fsTools());
const traps = plantTraps(h.base, h.root);
const at = (rel: string) => join(h.root, rel);
const secretPath = join(traps.outside, 'secret.txt');
let socket: Server;
beforeAll(async () => {
  socket = await listenSocket(at('sock'));
});
afterAll(async () => {
  socket.close();
  await h.close();
});

const PIPE_MESSAGE =
  'pipe is a named pipe (FIFO), not a regular file; toolbelt only reads and writes regular files. Name a regular file instead.';
const linkMessage = (name: string) =>
  `${name} has 2 hard links; one may point outside the workspace, so toolbelt refuses it. Copy the file instead of hard-linking it.`;

/** Calls a tool with the pipe (and any others named) watched: the call must return on its own. */
async function prompt(tool: string, input: Record<string, unknown>, fifos = [at('pipe')]): Promise<ToolResult> {
  const { result, rescued } = await withoutBlocking(fifos, h.base, () => h.call(tool, input));
  expect(rescued, `${tool} blocked on a named pipe`).toBe(false);
  return result;
}

function expectOutsideIntact() {
  expect(readFileSync(secretPath, 'utf8')).toBe(`${SECRET}\n`);
  expect(lstatSync(at('pipe')).isFIFO()).toBe(true);
}

function expectRefused(r: ToolResult, code: string, message?: string) {
  expect(r.status).toBe('error');
  expect(r.error?.code).toBe(code);
  if (message) expect(r.error?.message).toBe(message);
  expect(JSON.stringify(r)).not.toContain(SECRET);
}

describe('read_file and special files', () => {
  it('refuses a named pipe at once, without blocking', async () => {
    expectRefused(await prompt('read_file', { path: 'pipe' }), 'INVALID_PARAMS', PIPE_MESSAGE);
  });

  it('refuses a socket, saying what it is', async () => {
    const r = await h.call('read_file', { path: 'sock' });
    expectRefused(
      r,
      'INVALID_PARAMS',
      'sock is a socket, not a regular file; toolbelt only reads and writes regular files. Name a regular file instead.',
    );
  });

  it('refuses a hard link to a file outside the workspace, small or large', async () => {
    expectRefused(await h.call('read_file', { path: 'hard.txt' }), 'INVALID_PARAMS', linkMessage('hard.txt'));
    expectRefused(await h.call('read_file', { path: 'big-hard.txt' }), 'INVALID_PARAMS', linkMessage('big-hard.txt'));
  });

  it('refuses a symlink to a file outside and paths through symlinked directories outside', async () => {
    for (const path of ['link-out.txt', 'dir-out/secret.txt', 'procroot/etc/passwd']) {
      expectRefused(await h.call('read_file', { path }), 'PERMISSION_DENIED');
    }
  });
});

describe('write_file, edit_file and append_file and special files', () => {
  it('write_file refuses a named pipe without blocking and leaves it a pipe', async () => {
    expectRefused(await prompt('write_file', { path: 'pipe', content: 'x' }), 'INVALID_PARAMS', PIPE_MESSAGE);
    expectOutsideIntact();
  });

  it('write_file refuses a hard link, so the file outside is neither shown in a diff nor replaced', async () => {
    expectRefused(
      await h.call('write_file', { path: 'hard.txt', content: 'x' }),
      'INVALID_PARAMS',
      linkMessage('hard.txt'),
    );
    expectOutsideIntact();
  });

  it('write_file refuses a symlink to a file outside and a path in a symlinked directory outside', async () => {
    expectRefused(await h.call('write_file', { path: 'link-out.txt', content: 'x' }), 'PERMISSION_DENIED');
    expectRefused(await h.call('write_file', { path: 'dir-out/new.txt', content: 'x' }), 'PERMISSION_DENIED');
    expect(existsSync(join(traps.outside, 'new.txt'))).toBe(false);
    expectOutsideIntact();
  });

  it('edit_file refuses a named pipe, a hard link and a symlink out', async () => {
    const edit = { old_string: SECRET, new_string: 'gone' };
    expectRefused(await prompt('edit_file', { path: 'pipe', ...edit }), 'INVALID_PARAMS', PIPE_MESSAGE);
    expectRefused(await h.call('edit_file', { path: 'hard.txt', ...edit }), 'INVALID_PARAMS', linkMessage('hard.txt'));
    expectRefused(await h.call('edit_file', { path: 'link-out.txt', ...edit }), 'PERMISSION_DENIED');
    expectOutsideIntact();
  });

  it('append_file refuses a named pipe, a hard link and a symlink out', async () => {
    expectRefused(await prompt('append_file', { path: 'pipe', content: 'x' }), 'INVALID_PARAMS', PIPE_MESSAGE);
    expectRefused(
      await h.call('append_file', { path: 'hard.txt', content: 'x' }),
      'INVALID_PARAMS',
      linkMessage('hard.txt'),
    );
    expectRefused(await h.call('append_file', { path: 'link-out.txt', content: 'x' }), 'PERMISSION_DENIED');
    expectOutsideIntact();
  });
});

describe('copy_file and special files', () => {
  it('refuses a named pipe, a hard link or a symlink out as the source', async () => {
    expectRefused(await prompt('copy_file', { source: 'pipe', destination: 'copy1' }), 'INVALID_PARAMS', PIPE_MESSAGE);
    expectRefused(
      await h.call('copy_file', { source: 'hard.txt', destination: 'copy2' }),
      'INVALID_PARAMS',
      linkMessage('hard.txt'),
    );
    expectRefused(await h.call('copy_file', { source: 'link-out.txt', destination: 'copy3' }), 'PERMISSION_DENIED');
    expectRefused(
      await h.call('copy_file', { source: 'dir-out/secret.txt', destination: 'copy4' }),
      'PERMISSION_DENIED',
    );
    for (const name of ['copy1', 'copy2', 'copy3', 'copy4']) expect(existsSync(at(name))).toBe(false);
  });

  it('refuses to overwrite a named pipe, a hard link or a symlink out as the destination', async () => {
    h.write('plain.txt', 'plain\n');
    const copy = (destination: string) => ({ source: 'plain.txt', destination, overwrite: true });
    expectRefused(await prompt('copy_file', copy('pipe')), 'INVALID_PARAMS', PIPE_MESSAGE);
    expectRefused(await h.call('copy_file', copy('hard.txt')), 'INVALID_PARAMS', linkMessage('hard.txt'));
    expectRefused(await h.call('copy_file', copy('link-out.txt')), 'PERMISSION_DENIED');
    expectRefused(await h.call('copy_file', copy('dir-out/secret.txt')), 'PERMISSION_DENIED');
    expectRefused(await h.call('copy_file', copy('dir-out')), 'PERMISSION_DENIED');
    expectOutsideIntact();
    expect(lstatSync(at('hard.txt')).nlink).toBe(2);
  });
});

describe('move_file and delete_file and special files', () => {
  it('move_file renames a named pipe (it opens nothing) without blocking', async () => {
    mkfifo(at('pipe-to-move'));
    const r = await prompt('move_file', { source: 'pipe-to-move', destination: 'pipe-moved' }, [at('pipe-to-move')]);
    expect(h.text(r)).toBe('Moved pipe-to-move to pipe-moved.');
    expect(lstatSync(at('pipe-moved')).isFIFO()).toBe(true);
  });

  it('move_file moves a symlink out as a link and a hard link as one name; nothing outside moves', async () => {
    expect((await h.call('move_file', { source: 'link-out.txt', destination: 'link-moved.txt' })).status).toBe(
      'success',
    );
    expect(lstatSync(at('link-moved.txt')).isSymbolicLink()).toBe(true);
    expect((await h.call('move_file', { source: 'hard.txt', destination: 'hard-moved.txt' })).status).toBe('success');
    expectRefused(
      await h.call('read_file', { path: 'hard-moved.txt' }),
      'INVALID_PARAMS',
      linkMessage('hard-moved.txt'),
    );
    expect((await h.call('move_file', { source: 'hard-moved.txt', destination: 'hard.txt' })).status).toBe('success');
    expect((await h.call('move_file', { source: 'link-moved.txt', destination: 'link-out.txt' })).status).toBe(
      'success',
    );
    expectOutsideIntact();
  });

  it('move_file refuses a destination through a symlinked directory outside, or over a named pipe', async () => {
    h.write('mover.txt', 'm\n');
    expectRefused(
      await h.call('move_file', { source: 'mover.txt', destination: 'dir-out/mover.txt' }),
      'PERMISSION_DENIED',
    );
    expectRefused(
      await prompt('move_file', { source: 'mover.txt', destination: 'pipe', overwrite: true }),
      'INVALID_PARAMS',
      PIPE_MESSAGE,
    );
    expect(existsSync(join(traps.outside, 'mover.txt'))).toBe(false);
    expectOutsideIntact();
  });

  it('delete_file deletes a named pipe without blocking, and says what it was', async () => {
    mkfifo(at('pipe-to-delete'));
    const r = await prompt('delete_file', { path: 'pipe-to-delete' }, [at('pipe-to-delete')]);
    expect(h.text(r)).toBe('Deleted named pipe (FIFO) pipe-to-delete.');
    expect(existsSync(at('pipe-to-delete'))).toBe(false);
  });

  it('delete_file removes only the names inside: a hard link, a symlink out; never a path through one', async () => {
    h.write('elsewhere.txt', 'e\n');
    const sharer = join(traps.outside, 'shared.txt');
    linkSync(at('elsewhere.txt'), sharer);
    expect((await h.call('delete_file', { path: 'elsewhere.txt' })).status).toBe('success');
    expect(readFileSync(sharer, 'utf8')).toBe('e\n');
    expectRefused(await h.call('delete_file', { path: 'dir-out/secret.txt' }), 'PERMISSION_DENIED');
    expectRefused(await h.call('delete_file', { path: 'procroot/etc/hostname' }), 'PERMISSION_DENIED');
    expectOutsideIntact();
  });
});

describe('list_directory and special files', () => {
  it('marks named pipes, sockets and hard links, lists symlinks as links, and never opens an entry', async () => {
    const text = h.text(await prompt('list_directory', { path: '.', depth: 3 }));
    expect(text).toContain('  pipe  [named pipe (FIFO)]');
    expect(text).toContain('  sock  [socket]');
    expect(text).toMatch(/ {2}hard\.txt {2}\S+ B {2}\[2 hard links\]/);
    expect(text).toContain('  dir-out@');
    expect(text).toContain('  procroot@');
    expect(text).not.toContain('secret.txt');
    expect(text).not.toContain('passwd');
  });

  it('refuses to list a symlinked directory outside, or a named pipe', async () => {
    expectRefused(await h.call('list_directory', { path: 'dir-out' }), 'PERMISSION_DENIED');
    expectRefused(await h.call('list_directory', { path: 'procroot' }), 'PERMISSION_DENIED');
    expectRefused(
      await prompt('list_directory', { path: 'pipe' }),
      'INVALID_PARAMS',
      'pipe is a named pipe (FIFO), not a directory; list_directory lists directories.',
    );
  });
});
