import { describe, expect, it } from 'vitest';
import { sandboxNotes } from './explain.js';
import type { Confinement } from './sandbox.js';

const confined = (extra: Partial<Confinement> = {}): Confinement => ({
  profile: 'workspace-write',
  network: false,
  roots: ['/w'],
  hidden: ['/home/ann/.ssh'],
  home: '/home/ann',
  limits: { dataMb: 1024, openFiles: 100, processes: 4096 },
  wrap: (inv) => inv,
  ...extra,
});

describe('notes on what the sandbox blocked', () => {
  it('names a write outside the workspace and the key that allows it', () => {
    expect(sandboxNotes("touch: cannot touch '/home/ann/.cache/x': Read-only file system", confined())).toEqual([
      '[sandbox: commands may write only inside the workspace and /tmp; the rest of the file system is read-only (~/.cache/x). If the command must write there, ask the user to add the directory to sandbox.writable in toolbelt.config.json.]',
    ]);
    expect(sandboxNotes("Error: EROFS: read-only file system, open '/usr/lib/x'", confined())[0]).toContain(
      '(/usr/lib/x)',
    );
  });

  it('says a read needs write access', () => {
    expect(sandboxNotes('bash: out.txt: Read-only file system', confined({ profile: 'read-only' }))[0]).toMatch(
      /^\[sandbox: this command needs write access\. It was judged a read/,
    );
  });

  it('names a hidden path, and the network only when the command had none', () => {
    expect(sandboxNotes('cat: /home/ann/.ssh/id_rsa: No such file or directory', confined())[0]).toMatch(
      /^\[sandbox: ~\/\.ssh is hidden/,
    );
    expect(sandboxNotes('curl: (6) Could not resolve host: example.com', confined())[0]).toMatch(
      /^\[sandbox: this command has no network/,
    );
    expect(sandboxNotes('curl: (6) Could not resolve host: example.com', confined({ network: true }))).toEqual([]);
  });

  it('points at the limit a failure probably hit', () => {
    expect(
      sandboxNotes('FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory', confined()),
    ).toEqual([
      '[limits: it may have run out of memory: each process may use 1024 MB of data (sandbox.limits.dataMb). Ask the user to raise the limit in toolbelt.config.json if the task needs more.]',
    ]);
    expect(sandboxNotes('Error: EMFILE: too many open files', confined())[0]).toMatch(
      /100 files \(sandbox\.limits\.openFiles\)/,
    );
    expect(sandboxNotes('bash: fork: retry: Resource temporarily unavailable', confined())[0]).toMatch(
      /4096 processes/,
    );
  });

  it('says when bubblewrap itself failed, so the command never ran', () => {
    expect(
      sandboxNotes("bwrap: Can't mount tmpfs on /newroot/home/ann/.ssh: No such file or directory", confined())[0],
    ).toMatch(/^\[sandbox: bubblewrap could not set up the sandbox for this command/);
  });

  it('says nothing about the sandbox for a command that ran without it', () => {
    expect(
      sandboxNotes(
        "touch: cannot touch '/etc/x': Read-only file system",
        confined({ profile: 'none', limits: undefined }),
      ),
    ).toEqual([]);
  });
});
