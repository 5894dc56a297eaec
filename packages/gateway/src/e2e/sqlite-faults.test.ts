// SQLite as an operator expects: another process's lock fails writes at once (503 + Retry-After,
// the event loop free), a deleted file refuses writes instead of acknowledging what a restart would
// lose, a replaced file, a read-only directory or a full disk is reported by /healthz and a failed commit keeps the gateway up;
// each recovers by itself once the fault is gone. Real processes, files and tmpfs mounts.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { startGateway, until, type Harness } from '../__fixtures__/harness.js';

const PACKAGE = fileURLToPath(new URL('../..', import.meta.url));
let h: Harness | undefined;
let mounted: string | undefined;
afterEach(async () => {
  await h?.stop();
  if (mounted) spawnSync('umount', ['--lazy', mounted]);
  await h?.cleanup();
  h = undefined;
  mounted = undefined;
});

/** A tmpfs of `size` at a new directory, or why there can be none here. */
function mountTmpfs(size: string): string | { skip: string } {
  const dir = mkdtempSync(join(tmpdir(), 'tb-tmpfs-'));
  const r = spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir], { encoding: 'utf8' });
  if (r.status !== 0)
    return {
      skip: `cannot mount a tmpfs (${(r.stderr || r.error?.message || '').trim()}); run as root to test a full disk`,
    };
  mounted = dir;
  return dir;
}
const canMount = (() => {
  const m = mountTmpfs('64k');
  if (typeof m === 'string') spawnSync('umount', [m]);
  mounted = undefined;
  return typeof m === 'string' ? undefined : m.skip;
})();
if (canMount) console.warn(`the full-disk and read-only tests are skipped: ${canMount}`);

const call = (text: string) =>
  fetch(`${h!.url}/api/runs/r1/tool-calls`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ agentId: 'agent-a', name: 'echo', input: { text } }),
  });
const health = async () => {
  const res = await fetch(`${h!.url}/healthz`);
  return { status: res.status, body: (await res.json()) as { ok: boolean; error?: string } };
};

/** Another process holding the database's write lock until it is killed. */
async function lockingProcess(file: string): Promise<ChildProcess> {
  const script = `const D = require('better-sqlite3'); const d = new D(${JSON.stringify(file)}); d.exec('BEGIN IMMEDIATE'); console.log('locked'); setInterval(() => {}, 1000);`;
  const child = spawn(process.execPath, ['-e', script], { cwd: PACKAGE, stdio: ['ignore', 'pipe', 'inherit'] });
  await once(child.stdout!, 'data');
  return child;
}

describe('the SQLite store under faults', () => {
  it('fails writes at once while another process holds the lock, says so on /healthz, and recovers when it lets go', async () => {
    h = await startGateway({ mode: 'yolo' });
    expect((await call('before')).status).toBe(200);
    const locker = await lockingProcess(h.db);
    const refused = await call('locked');
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(await refused.json()).toMatchObject({
      error: { code: 'UNAVAILABLE', message: expect.stringMatching(/database is unavailable.*locked/) },
    });
    expect(await health()).toMatchObject({
      status: 503,
      body: { ok: false, error: expect.stringMatching(/cannot be written.*locked/) },
    });
    locker.kill('SIGKILL');
    await once(locker, 'exit');
    await until(health, (x) => x.status === 200, 'healthz to recover');
    expect((await call('after')).status).toBe(200);
  });

  it('refuses writes once the database file is deleted, instead of acknowledging what a restart would lose', async () => {
    h = await startGateway({ mode: 'yolo' });
    expect((await call('before')).status).toBe(200);
    for (const suffix of ['', '-wal', '-shm']) rmSync(h.db + suffix, { force: true });
    expect(await health()).toMatchObject({ status: 503, body: { error: expect.stringMatching(/is gone/) } });
    const refused = await call('into the void');
    expect(refused.status).toBe(503);
    expect(await refused.json()).toMatchObject({ error: { message: expect.stringMatching(/is gone/) } });
  });

  it.skipIf(canMount !== undefined)(
    'reports a full disk and a failed commit as 503, stays up, and recovers when space is freed',
    async () => {
      const dir = mountTmpfs('2m') as string;
      h = await startGateway({ mode: 'yolo', dir });
      expect((await call('before')).status).toBe(200);
      const filler = join(dir, 'filler');
      // Fill the disk to the last block; the next commits fail with SQLITE_FULL.
      spawnSync('dd', ['if=/dev/zero', `of=${filler}`, 'bs=64k'], { stdio: 'ignore' });
      expect(await health()).toMatchObject({ status: 503, body: { error: expect.stringMatching(/disk .* is full/) } });
      const statuses = new Set<number>();
      for (let i = 0; i < 5; i++) statuses.add((await call('x'.repeat(200_000))).status);
      expect([...statuses]).toEqual([503]);
      rmSync(filler);
      await until(health, (x) => x.status === 200, 'healthz to recover');
      expect((await call('after')).status).toBe(200);
    },
  );

  it('reports a replaced database file and refuses writes to the old one', async () => {
    h = await startGateway({ mode: 'yolo' });
    expect((await call('before')).status).toBe(200);
    writeFileSync(`${h.db}.new`, 'another file');
    renameSync(`${h.db}.new`, h.db);
    expect(await health()).toMatchObject({ status: 503, body: { error: expect.stringMatching(/was replaced/) } });
    expect((await call('into the old file')).status).toBe(503);
  });

  it.skipIf(canMount !== undefined)(
    'reports a read-only directory on /healthz and recovers when it is writable again',
    async () => {
      h = await startGateway({ mode: 'yolo' });
      expect((await call('before')).status).toBe(200);
      // A read-only view of the directory over its own path, as an operator's remount would give.
      // In one step (util-linux sets read-only on the new mount before attaching it): a bind mount
      // remounted read-only afterwards fails as busy once the gateway has a file open for writing in it.
      const ro = spawnSync('mount', ['--bind', '-o', 'ro', h.dir, h.dir], { encoding: 'utf8' });
      expect(ro.status, `mount --bind -o ro: ${ro.stderr}`).toBe(0);
      mounted = h.dir;
      expect(await health()).toMatchObject({
        status: 503,
        body: { error: expect.stringMatching(/read-only \(EROFS\)/) },
      });
      // Lazily: a probe that opened a file through the read-only view keeps it busy for a moment, and
      // a plain umount would then fail and leave the directory read-only.
      const rw = spawnSync('umount', ['--lazy', h.dir], { encoding: 'utf8' });
      expect(rw.status, `umount --lazy: ${rw.stderr}`).toBe(0);
      mounted = undefined;
      await until(health, (x) => x.status === 200, 'healthz to recover');
    },
  );
});
