import { mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { groupMembers } from './group.js';
import { runCommand, type RunOptions } from './run.js';

const cwd = mkdtempSync(join(tmpdir(), 'tb-run-'));
afterAll(() => rmSync(cwd, { recursive: true, force: true }));

const run = (script: string, o: Partial<RunOptions> = {}) =>
  runCommand({ script, cwd, timeoutMs: 20_000, maxBytes: 64 * 1024, killGraceMs: 300, ...o });

/** Running (non-zombie) processes with this pid, from /proc. */
function running(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    const state = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0];
    return state !== 'Z' && state !== 'X';
  } catch {
    return false;
  }
}

/** Every running process whose environment carries this marker. */
function withMarker(marker: string): number[] {
  const out: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (readFileSync(`/proc/${name}/environ`, 'latin1').includes(marker) && running(Number(name)))
        out.push(Number(name));
    } catch {
      // gone, or not ours to read
    }
  }
  return out;
}

describe('runCommand', () => {
  it('returns stdout, stderr and the exit code apart', async () => {
    const r = await run('echo out; echo err >&2; exit 3');
    expect(r.stdout.text).toBe('out\n');
    expect(r.stderr.text).toBe('err\n');
    expect(r.exitCode).toBe(3);
    expect(r.signal).toBeNull();
    expect(r.timedOut).toBe(false);
  });

  it('reports the signal that ended the command', async () => {
    const r = await run('kill -SEGV $$');
    expect(r.exitCode).toBeNull();
    expect(r.signal).toBe('SIGSEGV');
  });

  it('runs in the given directory', async () => {
    const r = await run('pwd -P');
    expect(r.stdout.text.trim()).toBe(realpathSync(cwd));
  });

  it('gives the command an empty stdin, so a prompt fails instead of hanging', async () => {
    const r = await run('read -p "name? " name; echo "status $? name [$name]"');
    expect(r.stdout.text).toBe('status 1 name []\n');
  });

  it('streams output as it comes, and the streamed text adds up to the whole', async () => {
    const chunks: string[] = [];
    const r = await run('for i in 1 2 3; do echo "line $i"; sleep 0.05; done; echo done >&2', {
      onOutput: (s, c) => chunks.push(`${s}:${c}`),
    });
    expect(
      chunks
        .filter((c) => c.startsWith('stdout:'))
        .map((c) => c.slice(7))
        .join(''),
    ).toBe(r.stdout.text);
    expect(chunks).toContain('stderr:done\n');
    expect(chunks.filter((c) => c.startsWith('stdout:')).length).toBeGreaterThanOrEqual(2);
  });

  it('stops the command at the timeout and keeps the output it had printed', async () => {
    const r = await run('echo started; sleep 30; echo never', { timeoutMs: 300 });
    expect(r.timedOut).toBe(true);
    expect(r.stdout.text).toBe('started\n');
    expect(r.signal).toBe('SIGTERM');
  });

  it('leaves no process of the group behind when grandchildren ignore SIGTERM', async () => {
    const marker = `TB_ORPHAN_TEST_${process.pid}_${Date.now()}`;
    const script = `
      trap '' TERM
      ( trap '' TERM; sleep 300 ) &
      ( trap '' TERM; bash -c 'trap "" TERM; sleep 300' & wait ) &
      sh -c 'trap "" TERM; sleep 300' &
      echo "children $(jobs -p | tr '\\n' ' ')"
      sleep 300`;
    const pending = run(script, { timeoutMs: 500, killGraceMs: 300, env: { ...process.env, [marker]: '1' } });
    // While it runs, the group really has grandchildren that ignore SIGTERM.
    let seen: number[] = [];
    for (let i = 0; i < 100 && seen.length < 5; i++) {
      await new Promise((r) => setTimeout(r, 20));
      seen = withMarker(marker);
    }
    expect(seen.length).toBeGreaterThanOrEqual(5);
    const r = await pending;
    expect(r.timedOut).toBe(true);
    expect(r.stdout.text).toMatch(/^children \d+/);
    expect(groupMembers(r.pid!)).toEqual([]);
    expect(withMarker(marker)).toEqual([]);
    expect(seen.filter(running)).toEqual([]);
  });

  it('completes when bash exits although a background child keeps stdout open, and stops that child', async () => {
    const marker = `TB_HOLDER_TEST_${process.pid}_${Date.now()}`;
    const r = await run('sleep 1000 & echo "bg $!"', { env: { ...process.env, [marker]: '1' } });
    expect(r.exitCode).toBe(0);
    expect(r.stdout.text).toMatch(/^bg \d+\n$/);
    expect(r.leftovers).toBe(true);
    const child = Number(/bg (\d+)/.exec(r.stdout.text)![1]);
    for (let i = 0; i < 100 && running(child); i++) await new Promise((res) => setTimeout(res, 20));
    expect(running(child)).toBe(false);
  });

  it('stops the whole group when the signal aborts', async () => {
    const ac = new AbortController();
    const pending = run('echo begun; sleep 300 & sleep 300', { signal: ac.signal, onOutput: () => ac.abort() });
    const r = await pending;
    expect(r.aborted).toBe(true);
    expect(groupMembers(r.pid!)).toEqual([]);
  });

  it('does not start at all when the signal is already aborted', async () => {
    const ac = new AbortController();
    ac.abort();
    const r = await run('touch should-not-exist', { signal: ac.signal });
    expect(r.aborted).toBe(true);
    expect(r.pid).toBeUndefined();
    expect(readdirSync(cwd)).not.toContain('should-not-exist');
  });

  it('reports a command that cannot start instead of throwing', async () => {
    const r = await run('true', { cwd: join(cwd, 'no-such-dir') });
    expect(r.spawnError?.message).toMatch(/ENOENT/);
  });

  it('applies resource limits with ulimit', async () => {
    const r = await run('echo "$(ulimit -n) $(ulimit -t) $(ulimit -v)"', {
      limits: { openFiles: 64, cpuSeconds: 7, memoryMb: 512 },
    });
    expect(r.stdout.text).toBe('64 7 524288\n');
  });

  it('kills a command that uses up its CPU time limit', async () => {
    const r = await run('while :; do :; done', { limits: { cpuSeconds: 1 } });
    expect(r.signal === 'SIGXCPU' || r.signal === 'SIGKILL').toBe(true);
  });

  it('keeps head and tail of output larger than the limit, with the total size', async () => {
    const r = await run('seq 1 200000', { maxBytes: 4096 });
    expect(r.stdout.totalBytes).toBe(1_288_895);
    expect(r.stdout.text.startsWith('1\n2\n3\n')).toBe(true);
    expect(r.stdout.text.endsWith('199999\n200000\n')).toBe(true);
    expect(r.stdout.text).toContain('1,288,895 bytes in total');
  });

  it('reads 1 GB of stdout in bounded memory and returns its head and tail', async () => {
    const gb = 1024 * 1024 * 1024;
    (globalThis as { gc?: () => void }).gc?.();
    const before = process.memoryUsage().rss;
    let peak = before;
    const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
    let streamed = 0;
    const r = await run(`yes 0123456789abcdef | head -c ${gb}; echo; echo the-end`, {
      timeoutMs: 120_000,
      onOutput: (_s, c) => (streamed += c.length),
    });
    clearInterval(timer);
    peak = Math.max(peak, process.memoryUsage().rss);
    expect(r.exitCode).toBe(0);
    expect(r.stdout.totalBytes).toBe(gb + 9);
    expect(streamed).toBe(gb + 9);
    expect(r.stdout.text.startsWith('0123456789abcdef\n0123456789abcdef\n')).toBe(true);
    expect(r.stdout.text.endsWith('\nthe-end\n')).toBe(true);
    expect(r.stdout.text).toContain('1,073,741,833 bytes in total');
    expect(peak - before).toBeLessThan(100 * 1024 * 1024);
  }, 120_000);
});
