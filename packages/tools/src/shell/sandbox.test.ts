// shell_exec and shell_background in the real sandbox (bubblewrap): what a command can and cannot
// reach, its limits, and what the model is told when the sandbox stops something.
import { createServer, type Server } from 'node:http';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { textOf } from '@toolbelt/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxWorks } from '../sandbox/__fixtures__/available.js';
import { cleanupWorkspaces, harness, type HarnessOptions } from './__fixtures__/harness.js';

// Not under /tmp: the sandbox gives every command its own /tmp, which would hide it for another reason.
const home = mkdtempSync(join(dirname(fileURLToPath(import.meta.url)), '.home-'));
mkdirSync(join(home, '.ssh'));
writeFileSync(join(home, '.ssh', 'id_rsa'), 'PRIVATE-KEY-MATERIAL\n');
writeFileSync(join(home, 'notes.txt'), 'visible notes\n');
const env = { ...process.env, HOME: home };

afterAll(() => {
  cleanupWorkspaces();
  rmSync(home, { recursive: true, force: true });
});

/** The top directory under /tmp of this checkout, when it is in one. */
function installUnderTmp(): string[] {
  const here = fileURLToPath(import.meta.url);
  return here.startsWith('/tmp/') ? [here.split('/')[2]] : [];
}

const sandboxed = (opts: HarnessOptions = {}) => harness({ mode: 'yolo', env, ...opts });

describe.skipIf(!sandboxWorks)('the sandbox around shell commands', () => {
  it('lets a command write inside the workspace, and nowhere else (auto-approved in yolo too)', async () => {
    const h = sandboxed();
    const r = await h.call('shell_exec', { command: `echo made > inside.txt && echo leak > ${home}/outside.txt` });
    expect(r.approvedBy).toBe('auto');
    expect(readFileSync(join(h.root, 'inside.txt'), 'utf8')).toBe('made\n');
    expect(existsSync(join(home, 'outside.txt'))).toBe(false);
    expect(textOf(r)).toMatch(/Read-only file system/);
    expect(textOf(r)).toContain(
      `[sandbox: commands may write only inside the workspace and /tmp; the rest of the file system is read-only (~/outside.txt). If the command must write there, ask the user to add the directory to sandbox.writable`,
    );
    expect(r.metadata).toMatchObject({ sandbox: 'workspace-write', network: false });
  });

  it('writes a directory named in sandbox.writable', async () => {
    const cache = join(home, 'cache');
    mkdirSync(cache, { recursive: true });
    const h = sandboxed({ config: { sandbox: { writable: ['~/cache'] } } });
    expect(textOf(await h.call('shell_exec', { command: `echo ok > ${cache}/x && cat ${cache}/x` }))).toBe(
      'ok\n[exit code 0]',
    );
  });

  it('gives each command its own empty /tmp', async () => {
    const h = sandboxed();
    const marker = `tb-sbx-${process.pid}-${Date.now()}`;
    // The workspace is under /tmp here: it is mounted again on top, and is all the next command sees
    // there, with toolbelt's own installation when that is under /tmp too (a checkout in a temp dir).
    const seen = [basename(h.root), ...installUnderTmp()];
    expect(textOf(await h.call('shell_exec', { command: `echo x > /tmp/${marker} && ls /tmp` }))).toBe(
      `${[marker, ...seen].sort().join('\n')}\n[exit code 0]`,
    );
    expect(existsSync(join('/tmp', marker))).toBe(false);
    expect(textOf(await h.call('shell_exec', { command: 'ls -A /tmp' }))).toBe(
      `${seen.sort().join('\n')}\n[exit code 0]`,
    );
  });

  it("hides the user's secrets and toolbelt's own files, and says so", async () => {
    const db = join(home, 'gateway.db');
    writeFileSync(db, 'GATEWAY-DATABASE\n');
    const h = sandboxed({ protectedPaths: [db] });
    writeFileSync(join(h.root, 'toolbelt.config.json'), '{"gateway":{"tokens":[{"token":"CONFIG-TOKEN-0123456789"}]}}');
    const r = await h.call('shell_exec', {
      command: `cat ${home}/notes.txt; cat ${db}; cat toolbelt.config.json; ls -A ${home}/.ssh; cat ${home}/.ssh/id_rsa`,
    });
    const out = textOf(r);
    expect(out).toMatch(/^visible notes\n\[stderr\]/);
    for (const secret of ['PRIVATE-KEY-MATERIAL', 'GATEWAY-DATABASE', 'CONFIG-TOKEN'])
      expect(out).not.toContain(secret);
    expect(out).toMatch(/\.ssh\/id_rsa: No such file or directory/);
    expect(out).toContain(
      '[sandbox: ~/.ssh is hidden from commands (secrets or toolbelt\'s own files): it looks empty or missing inside. If the task really needs it, ask the user to unhide it with "!~/.ssh" in sandbox.hidden',
    );
    // What the user unhides is there again.
    const unhidden = sandboxed({ config: { sandbox: { hidden: ['!~/.ssh'] } } });
    expect(textOf(await unhidden.call('shell_exec', { command: `cat ${home}/.ssh/id_rsa` }))).toContain(
      'PRIVATE-KEY-MATERIAL',
    );
  });

  describe('network', () => {
    let server: Server;
    let hits = 0;
    let url = '';
    beforeAll(async () => {
      server = createServer((_req, res) => {
        hits++;
        res.end('pong');
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    });
    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
    const fetchCmd = () =>
      `node -e "fetch('${url}').then(async (r) => console.log(await r.text()), (e) => { console.error(e.cause?.code ?? e.message); process.exit(7); })"`;

    it('has none by default: even a server on 127.0.0.1 is out of reach', async () => {
      hits = 0;
      const r = await sandboxed().call('shell_exec', { command: fetchCmd() });
      expect(hits).toBe(0);
      expect(textOf(r)).toMatch(/ECONNREFUSED\n\[exit code 7\]/);
      expect(textOf(r)).toContain(
        '[sandbox: this command has no network (it gets its own, with an empty localhost, so servers outside it are unreachable too). If it needs the network, ask the user to allow it with sandbox.network',
      );
    });

    it('is there for every command with network: true, and for listed commands only with a list', async () => {
      hits = 0;
      expect(
        textOf(await sandboxed({ config: { sandbox: { network: true } } }).call('shell_exec', { command: fetchCmd() })),
      ).toBe('pong\n[exit code 0]');
      const listed = sandboxed({ config: { sandbox: { network: ['node'] } } });
      const ok = await listed.call('shell_exec', { command: fetchCmd() });
      expect(textOf(ok)).toBe('pong\n[exit code 0]');
      expect(ok.metadata).toMatchObject({ network: true });
      // Every part of the script must be listed: `true` is not.
      expect(textOf(await listed.call('shell_exec', { command: `true && ${fetchCmd()}` }))).toMatch(/ECONNREFUSED/);
      expect(hits).toBe(2);
    });
  });

  it('stops a command that allocates more than the memory limit', async () => {
    const h = sandboxed({ config: { sandbox: { limits: { dataMb: 64 } } } });
    const small = await h.call('shell_exec', { command: `node -e "Buffer.alloc(16e6).fill(1); console.log('fits')"` });
    expect(textOf(small)).toBe('fits\n[exit code 0]');
    const big = await h.call('shell_exec', { command: `node -e "Buffer.alloc(256e6).fill(1); console.log('fits')"` });
    expect(textOf(big)).not.toContain('fits');
    expect(big.metadata?.exitCode).not.toBe(0);
    expect(textOf(big)).toContain(
      '[limits: it may have run out of memory: each process may use 64 MB of data (sandbox.limits.dataMb).',
    );
  });

  it('runs under the default limits: CPU time, data, open files, processes', async () => {
    const r = await sandboxed().call('shell_exec', {
      command: 'ulimit -t; ulimit -d; ulimit -n; ulimit -u; ulimit -v',
    });
    expect(textOf(r)).toBe('3600\n1048576\n1024\n4096\nunlimited\n[exit code 0]');
    // shell.limits win over sandbox.limits.
    const own = await sandboxed({ config: { shell: { limits: { openFiles: 50 } } } }).call('shell_exec', {
      command: 'ulimit -n',
    });
    expect(textOf(own)).toBe('50\n[exit code 0]');
  });

  it('builds and tests a small project inside the workspace', async () => {
    const h = sandboxed();
    const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
    mkdirSync(join(h.root, 'src'));
    writeFileSync(
      join(h.root, 'src', 'sum.ts'),
      'export function sum(a: number, b: number): number {\n  return a + b;\n}\n',
    );
    writeFileSync(
      join(h.root, 'sum.test.mjs'),
      "import { test } from 'node:test';\nimport assert from 'node:assert';\nimport { sum } from './dist/sum.js';\ntest('sum', () => assert.strictEqual(sum(2, 3), 5));\n",
    );
    writeFileSync(join(h.root, 'package.json'), '{"type":"module"}');
    const r = await h.call('shell_exec', {
      command: `node ${tsc} --outDir dist --module nodenext --strict src/sum.ts && node --test sum.test.mjs`,
      timeout_ms: 120_000,
    });
    expect(textOf(r)).toMatch(/# pass 1\n# fail 0/);
    expect(r.metadata).toMatchObject({ exitCode: 0, sandbox: 'workspace-write' });
    expect(existsSync(join(h.root, 'dist', 'sum.js'))).toBe(true);
  });

  describe('a command judged a read', () => {
    // BASH_ENV makes bash run a script before the command: a stand-in for a "read" that runs code
    // the classifier did not see (hash -p, a subscript, a git config hook).
    const hook = (root: string) => {
      writeFileSync(join(root, 'hook.sh'), `echo pwned > ${root}/pwned || exit 3\n`);
      return join(root, 'hook.sh');
    };
    const withBashEnv = async <T>(file: string, run: () => Promise<T>): Promise<T> => {
      process.env.BASH_ENV = file;
      try {
        return await run();
      } finally {
        delete process.env.BASH_ENV;
      }
    };

    it('runs without asking, with the workspace read-only too, and is reported as needing write access', async () => {
      const h = sandboxed({ mode: 'safe' });
      const r = await withBashEnv(hook(h.root), () => h.call('shell_exec', { command: 'ls' }));
      expect(r.approvedBy).toBe('auto');
      expect(r.metadata).toMatchObject({ sandbox: 'read-only', network: false });
      expect(existsSync(join(h.root, 'pwned'))).toBe(false);
      expect(textOf(r)).toContain(
        '[sandbox: this command needs write access. It was judged a read, so it ran with the whole file system read-only (the workspace too) and no network. Ask the user, then run it again with write_access: true',
      );
    });

    it('runs with write access once the person approves it as a command that writes', async () => {
      const h = sandboxed({ mode: 'safe', answers: [{ outcome: 'approve' }] });
      const r = await withBashEnv(hook(h.root), () => h.call('shell_exec', { command: 'ls', write_access: true }));
      expect(h.requests).toHaveLength(1);
      expect(h.requests[0].effect).toBe('execute');
      expect(r.metadata).toMatchObject({ sandbox: 'workspace-write' });
      expect(readFileSync(join(h.root, 'pwned'), 'utf8')).toBe('pwned\n');
    });

    it('writes freely without the sandbox: what the read-only profile prevents', async () => {
      const h = sandboxed({ mode: 'safe', config: { sandbox: { mode: 'off' } } });
      const r = await withBashEnv(hook(h.root), () => h.call('shell_exec', { command: 'ls' }));
      expect(r.approvedBy).toBe('auto');
      expect(existsSync(join(h.root, 'pwned'))).toBe(true);
    });

    it('gets no network even where the config allows it', async () => {
      const r = await sandboxed({ mode: 'safe', config: { sandbox: { network: true } } }).call('shell_exec', {
        command: 'git status',
      });
      expect(r.metadata).toMatchObject({ sandbox: 'read-only', network: false });
    });
  });

  it('runs background commands in it, and explains their failure on reading the output', async () => {
    const h = sandboxed();
    const started = await h.call('shell_background', { command: `touch ${home}/bg.txt` });
    expect(started.metadata).toMatchObject({ sandbox: 'workspace-write' });
    const out = await h.call('shell_job', { id: started.metadata!.id, wait_ms: 10_000 });
    expect(textOf(out)).toMatch(/Read-only file system/);
    expect(textOf(out)).toContain('[sandbox: commands may write only inside the workspace and /tmp');
    expect(existsSync(join(home, 'bg.txt'))).toBe(false);
  });

  it('leaves nothing running when a command is cancelled', async () => {
    const h = sandboxed();
    const ac = new AbortController();
    const pending = h.call('shell_exec', { command: 'sleep 987 & echo up; sleep 986' }, { signal: ac.signal });
    await new Promise<void>((resolve) => h.events.onType('tool.output', () => resolve()));
    ac.abort();
    expect((await pending).error?.code).toBe('ABORTED');
    const sleeping = () =>
      readdirSync('/proc').filter((p) => {
        try {
          return /^sleep\0(987|986)\0$/.test(readFileSync(`/proc/${p}/cmdline`, 'latin1'));
        } catch {
          return false;
        }
      });
    for (let i = 0; i < 100 && sleeping().length; i++) await new Promise((r) => setTimeout(r, 20));
    expect(sleeping()).toEqual([]);
  });
});

describe('without bubblewrap', () => {
  const missing = { bwrapPath: '/nonexistent/bwrap' };

  it('refuses to run commands in required mode, saying why and what to do', async () => {
    const h = harness({ mode: 'yolo', config: { sandbox: { ...missing, mode: 'required' } } });
    const r = await h.call('shell_exec', { command: 'touch ran.txt' });
    expect(r.error?.code).toBe('PERMISSION_DENIED');
    expect(r.error?.message).toBe(
      'not run: sandbox.mode is "required" and the sandbox does not work here (/nonexistent/bwrap was not found). Ask the user to fix it (install bubblewrap (Debian/Ubuntu: apt-get install bubblewrap; Fedora: dnf install bubblewrap; Arch: pacman -S bubblewrap)) or to set sandbox.mode to "auto" in toolbelt.config.json; `toolbelt doctor` shows why.',
    );
    expect(existsSync(join(h.root, 'ran.txt'))).toBe(false);
  });

  it('runs them unconfined in auto mode and says so once', async () => {
    const h = harness({ mode: 'yolo', config: { sandbox: missing } });
    const first = await h.call('shell_exec', { command: 'touch ran.txt' });
    expect(textOf(first)).toBe(
      '(no output)\n[exit code 0]\n[note: commands and MCP servers run without a sandbox here: /nonexistent/bwrap was not found (install bubblewrap (Debian/Ubuntu: apt-get install bubblewrap; Fedora: dnf install bubblewrap; Arch: pacman -S bubblewrap)). `toolbelt doctor` shows more; set sandbox.mode to "off" to silence this.]',
    );
    expect(first.metadata).toMatchObject({ sandbox: 'none' });
    expect(existsSync(join(h.root, 'ran.txt'))).toBe(true);
    expect(textOf(await h.call('shell_exec', { command: 'true' }))).toBe('(no output)\n[exit code 0]');
  });
});
