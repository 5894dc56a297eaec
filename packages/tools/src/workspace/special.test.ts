// The shared checks on what is at a path, on real files: a named pipe, a socket, a character
// device (/dev/null), a hard link, a directory, a plain file.
import { closeSync, linkSync, lstatSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ToolError } from '@toolbelt/core';
import { listenSocket, mkfifo, withoutBlocking } from './__fixtures__/special.js';
import { fileRefusal, isPlainFile, openChecked, openCheckedSync, specialKind } from './special.js';

const base = realpathSync(mkdtempSync(join(tmpdir(), 'tb-special-')));
const at = (name: string) => join(base, name);
const fifo = mkfifo(at('pipe'));
writeFileSync(at('plain.txt'), 'plain\n');
writeFileSync(at('linked.txt'), 'linked\n');
linkSync(at('linked.txt'), at('other-name.txt'));
mkdirSync(at('dir'));
let socket: Server;
beforeAll(async () => {
  socket = await listenSocket(at('sock'));
});
afterAll(() => {
  socket.close();
  rmSync(base, { recursive: true, force: true });
});

async function refusalOf(open: () => unknown): Promise<ToolError> {
  const { result, rescued } = await withoutBlocking([fifo], base, async () => {
    try {
      open();
      return undefined;
    } catch (err) {
      return err;
    }
  });
  expect(rescued).toBe(false);
  expect(result).toBeInstanceOf(ToolError);
  return result as ToolError;
}

describe('special files', () => {
  it('names each kind and lets regular files, directories and symlinks pass', () => {
    expect(specialKind(lstatSync(fifo))).toBe('named pipe (FIFO)');
    expect(specialKind(lstatSync(at('sock')))).toBe('socket');
    expect(specialKind(lstatSync('/dev/null'))).toBe('character device');
    for (const p of [at('plain.txt'), at('dir')]) expect(specialKind(lstatSync(p))).toBeUndefined();
  });

  it('treats a regular file with more than one name as not plain', () => {
    expect(isPlainFile(lstatSync(at('plain.txt')))).toBe(true);
    expect(isPlainFile(lstatSync(at('linked.txt')))).toBe(false);
    expect(fileRefusal(lstatSync(at('linked.txt')), 'linked.txt')?.message).toBe(
      'linked.txt has 2 hard links; one may point outside the workspace, so toolbelt refuses it. Copy the file instead of hard-linking it.',
    );
    expect(fileRefusal(lstatSync(at('dir')), 'dir')).toBeUndefined();
  });

  it('opens a named pipe without blocking and refuses it, synchronously or not', async () => {
    const sync = await refusalOf(() => openCheckedSync(fifo, 'pipe'));
    expect(sync).toMatchObject({
      code: 'INVALID_PARAMS',
      message:
        'pipe is a named pipe (FIFO), not a regular file; toolbelt only reads and writes regular files. Name a regular file instead.',
    });
    const { result, rescued } = await withoutBlocking([fifo], base, () =>
      openChecked(fifo, 'pipe').then(
        () => undefined,
        (err: unknown) => err,
      ),
    );
    expect(rescued).toBe(false);
    expect(result).toMatchObject({ code: 'INVALID_PARAMS', message: sync.message });
  });

  it('refuses a socket (which cannot be opened) and a device by what they are', async () => {
    expect((await refusalOf(() => openCheckedSync(at('sock'), 'sock'))).message).toMatch(
      /^sock is a socket, not a regular file/,
    );
    expect((await refusalOf(() => openCheckedSync('/dev/null', 'null'))).message).toMatch(
      /^null is a character device, not a regular file/,
    );
  });

  it('returns plain files and directories open, with their stats', async () => {
    const { fd, stat } = openCheckedSync(at('plain.txt'), 'plain.txt');
    closeSync(fd);
    expect(stat.size).toBe(6);
    const dir = await openChecked(at('dir'), 'dir');
    await dir.fh.close();
    expect(dir.stat.isDirectory()).toBe(true);
  });
});
