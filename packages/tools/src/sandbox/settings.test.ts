import { describe, expect, it } from 'vitest';
import { bwrapArgs } from './bwrap.js';
import { parseToolsConfig } from '../config.js';
import { sandboxSettings } from './settings.js';

const env = { HOME: '/home/ann' };

describe('sandbox settings', () => {
  it('defaults to auto, no network, the spec limits, and the secrets of the home directory hidden', () => {
    const s = sandboxSettings(undefined, { env });
    expect(s).toMatchObject({ mode: 'auto', network: false, writable: [], bwrap: 'bwrap', home: '/home/ann' });
    expect(s.limits).toEqual({ cpuSeconds: 3600, dataMb: 1024, openFiles: 1024, processes: 4096 });
    expect(s.hidden).toEqual(
      expect.arrayContaining(['/home/ann/.ssh', '/home/ann/.aws', '/home/ann/.netrc', '/home/ann/.config/gh']),
    );
  });

  it('adds hidden and writable paths, expands ~, and unhides a default with "!"', () => {
    const s = sandboxSettings(
      {
        hidden: ['~/vault', '!~/.npmrc'],
        writable: ['~/.cache', '/opt/out'],
        limits: { openFiles: 512 },
        network: ['npm install'],
      },
      { env },
    );
    expect(s.hidden).toContain('/home/ann/vault');
    expect(s.hidden).not.toContain('/home/ann/.npmrc');
    expect(s.writable).toEqual(['/home/ann/.cache', '/opt/out']);
    expect(s.limits).toEqual({ cpuSeconds: 3600, dataMb: 1024, openFiles: 512, processes: 4096 });
    expect(s.network).toEqual(['npm install']);
  });

  it('keeps a default limit that a typed section leaves undefined', () => {
    expect(sandboxSettings({ limits: { openFiles: undefined, cpuSeconds: 10 } }, { env }).limits).toEqual({
      cpuSeconds: 10,
      dataMb: 1024,
      openFiles: 1024,
      processes: 4096,
    });
  });

  it('says what is wrong with a bad value', () => {
    const problem = (sandbox: unknown) => () => parseToolsConfig({ sandbox });
    expect(problem({ mode: 'strict' })).toThrow('sandbox.mode: must be one of "auto", "required", "off", not "strict"');
    expect(problem({ writable: ['build/cache'] })).toThrow(
      'sandbox.writable[0]: must be an absolute path or one starting with "~/", not "build/cache"',
    );
    expect(problem({ hidden: ['!vault'] })).toThrow(
      'sandbox.hidden[0]: must be an absolute path or one starting with "~/" ("!" before it unhides a default), not "!vault"',
    );
    expect(problem({ limits: { openFiles: 0 } })).toThrow(
      'sandbox.limits.openFiles: must be a positive integer, not 0',
    );
    expect(problem({ network: 'yes' })).toThrow(
      'sandbox.network: must be true, false or a list of command prefixes, not "yes"',
    );
  });
});

describe('the bubblewrap command line', () => {
  const base = {
    roots: ['/w'],
    network: false,
    writable: ['/home/ann/.cache'],
    hidden: [
      { path: '/home/ann/.ssh', dir: true },
      { path: '/w/toolbelt.config.json', dir: false },
    ],
    cwd: '/w/src',
  };

  it('mounts the roots writable after the read-only root and /tmp, and hides paths last', () => {
    const args = bwrapArgs({ ...base, readOnly: false }).join(' ');
    expect(args).toBe(
      '--die-with-parent --unshare-all --ro-bind / / --dev /dev --proc /proc --tmpfs /tmp --bind /w /w --bind /home/ann/.cache /home/ann/.cache --tmpfs /home/ann/.ssh --remount-ro /home/ann/.ssh --ro-bind /dev/null /w/toolbelt.config.json --setenv TMPDIR /tmp --chdir /w/src',
    );
  });

  it('drops capabilities, empties /run, pins .git and keeps its config read-only, in that order', () => {
    const args = bwrapArgs({
      ...base,
      readOnly: false,
      hardening: ['--unshare-user', '--uid', '65534', '--gid', '65534', '--disable-userns', '--cap-drop', 'ALL'],
      privateDirs: ['/run'],
      readable: ['/run/systemd/resolve/stub-resolv.conf'],
      pinned: ['/w/.git'],
      readOnlyPaths: ['/w/.git/config', '/w/.git/hooks'],
    }).join(' ');
    expect(args).toBe(
      '--die-with-parent --unshare-all --unshare-user --uid 65534 --gid 65534 --disable-userns --cap-drop ALL --ro-bind / / --dev /dev --proc /proc --tmpfs /tmp --tmpfs /run ' +
        '--ro-bind /run/systemd/resolve/stub-resolv.conf /run/systemd/resolve/stub-resolv.conf --bind /w /w --bind /home/ann/.cache /home/ann/.cache --bind /w/.git /w/.git ' +
        '--tmpfs /home/ann/.ssh --remount-ro /home/ann/.ssh --ro-bind /dev/null /w/toolbelt.config.json --ro-bind /w/.git/config /w/.git/config --ro-bind /w/.git/hooks /w/.git/hooks ' +
        '--setenv TMPDIR /tmp --chdir /w/src',
    );
  });

  it("mounts toolbelt's installation back read-only over the private /tmp, before the roots", () => {
    const args = bwrapArgs({ ...base, roots: ['/tmp/ci/w'], readOnly: false, readable: ['/tmp/ci'] }).join(' ');
    expect(args).toContain('--tmpfs /tmp --ro-bind /tmp/ci /tmp/ci --bind /tmp/ci/w /tmp/ci/w');
  });

  it('keeps everything read-only for a read, and shares the network only when allowed', () => {
    const read = bwrapArgs({ ...base, readOnly: true });
    expect(read).toContain('--ro-bind');
    expect(read.join(' ')).not.toMatch(/--bind /);
    expect(read).not.toContain('--share-net');
    expect(bwrapArgs({ ...base, readOnly: false, network: true })).toContain('--share-net');
  });
});
