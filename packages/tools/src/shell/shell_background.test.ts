import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { textOf } from '@toolbelt/core';
import { afterAll, describe, expect, it } from 'vitest';
import { groupMembers } from '../process/group.js';
import { cleanupWorkspaces, harness, type Harness } from './__fixtures__/harness.js';

afterAll(cleanupWorkspaces);

async function start(h: Harness, command: string): Promise<{ id: string; pid: number }> {
  const r = await h.call('shell_background', { command });
  expect(r.status, textOf(r)).toBe('success');
  return { id: r.metadata!.id as string, pid: r.metadata!.pid as number };
}

async function until(test: () => boolean): Promise<void> {
  for (let i = 0; i < 250 && !test(); i++) await new Promise((r) => setTimeout(r, 20));
}

describe('shell_background and its companions', () => {
  it('returns an id at once and reads only the output that is new since the last read', async () => {
    const h = harness({ mode: 'yolo' });
    const { id } = await start(h, 'echo first; sleep 0.3; echo second >&2; sleep 60');
    expect(id).toBe('bg1');
    const one = await h.call('shell_job', { id, wait_ms: 5000, until: 'first' });
    expect(textOf(one)).toBe('first\n[bg1 running for ' + textOf(one).split('running for ')[1]);
    expect(one.metadata).toMatchObject({ running: true, matched: true });
    const two = await h.call('shell_job', { id, wait_ms: 5000, until: '^second$' });
    expect(textOf(two).split('\n')[0]).toBe('second');
    const three = await h.call('shell_job', { id });
    expect(textOf(three).split('\n')[0]).toBe('(no new output)');
    await h.executor.close();
  });

  it('waits for the process to exit and reports its exit code', async () => {
    const h = harness({ mode: 'yolo' });
    const { id } = await start(h, 'sleep 0.2; echo done; exit 7');
    const r = await h.call('shell_job', { id, wait_ms: 10_000 });
    expect(textOf(r)).toMatch(/^done\n\[bg1 exited with code 7 after [\d.]+ (ms|s)\]$/);
    expect(r.metadata).toMatchObject({ running: false, exitCode: 7 });
  });

  it('lists what runs and what ended', async () => {
    const h = harness({ mode: 'yolo' });
    await start(h, 'sleep 60');
    const { id } = await start(h, 'echo quick');
    await h.call('shell_job', { id, wait_ms: 5000 });
    const r = await h.call('shell_job', { action: 'list' });
    const lines = textOf(r).split('\n');
    expect(lines[0]).toMatch(/^bg1 {2}pid \d+ {2}running for .* {2}0 bytes unread {2}\$ sleep 60$/);
    expect(lines[1]).toMatch(/^bg2 {2}pid \d+ {2}exited with code 0 after .*\$ echo quick$/);
    expect(r.display?.kind).toBe('table');
    await h.executor.close();
  });

  it('stops the whole group with shell_job kill, even children that ignore SIGTERM', async () => {
    const h = harness({ mode: 'yolo' });
    const { id, pid } = await start(h, "trap '' TERM; (trap '' TERM; sleep 300) & echo ready; sleep 300");
    await h.call('shell_job', { id, wait_ms: 5000, until: 'ready' });
    expect(groupMembers(pid).length).toBeGreaterThanOrEqual(2);
    const r = await h.call('shell_job', { action: 'kill', id });
    expect(textOf(r)).toMatch(/^Stopped bg1: killed by SIGKILL/);
    expect(groupMembers(pid)).toEqual([]);
  });

  it('says which ids exist when asked for an unknown one', async () => {
    const h = harness({ mode: 'yolo' });
    await start(h, 'true');
    const r = await h.call('shell_job', { id: 'bg9' });
    expect(r.error?.code).toBe('NOT_FOUND');
    expect(r.error?.message).toBe(
      'no background process with id "bg9". Known ids: bg1. shell_job {"action":"list"} shows them.',
    );
  });

  it('shows a job only to the session that started it', async () => {
    const h = harness({ mode: 'yolo' });
    const r = await h.call('shell_background', { command: 'sleep 60' }, { sessionId: 'alice' });
    const id = r.metadata!.id as string;
    expect((await h.call('shell_job', { id }, { sessionId: 'bob' })).error?.code).toBe('NOT_FOUND');
    expect((await h.call('shell_job', { action: 'kill', id }, { sessionId: 'bob' })).error?.code).toBe('NOT_FOUND');
    expect(textOf(await h.call('shell_job', { action: 'list' }, { sessionId: 'bob' }))).toMatch(
      /^No background commands/,
    );
    expect(textOf(await h.call('shell_job', { action: 'list' }, { sessionId: 'alice' }))).toMatch(/^bg1 /);
    await h.executor.close();
  });

  it('keeps a bounded log and says how much output was dropped between reads', async () => {
    const h = harness({ mode: 'yolo', settings: { backgroundLogBytes: 1000 } });
    const { id } = await start(h, 'seq 1 10000; echo end');
    const r = await h.call('shell_job', { id, wait_ms: 10_000 });
    expect(textOf(r)).toMatch(/^\[47,\d{3} bytes of older output were dropped before this read\]\n/);
    expect(textOf(r)).toMatch(/\n10000\nend\n\[bg1 exited with code 0/);
    expect(Number(r.metadata!.droppedBytes) + Number(r.metadata!.newBytes)).toBe(48_898);
  });

  it('classifies the command like shell_exec and asks before a write', async () => {
    const h = harness({ mode: 'safe', answers: [{ outcome: 'reject' }] });
    const r = await h.call('shell_background', { command: 'sleep 1; touch made.txt' });
    expect(r.status).toBe('rejected');
    expect(h.requests[0].preview).toMatchObject({
      kind: 'command',
      command: 'sleep 1; touch made.txt',
      classification: 'write: touch made.txt',
    });
  });

  it('fails the call, and lists nothing, when bash cannot start', async () => {
    const h = harness({ mode: 'yolo' });
    rmSync(h.root, { recursive: true });
    const r = await h.call('shell_background', { command: 'true' });
    expect(r.error?.code).toBe('EXECUTION_FAILED');
    expect(r.error?.message).toMatch(/^could not start bash in \.: .*ENOENT/);
    expect(textOf(await h.call('shell_job', { action: 'list' }))).toMatch(/^No background commands/);
    const e = await h.call('shell_exec', { command: 'true' });
    expect(e.error?.code).toBe('EXECUTION_FAILED');
  });

  it('refuses more background processes than the limit', async () => {
    const h = harness({ mode: 'yolo', settings: { maxBackground: 2 } });
    await start(h, 'sleep 60');
    await start(h, 'sleep 60');
    const r = await h.call('shell_background', { command: 'sleep 60' });
    expect(r.error?.code).toBe('CONFLICT');
    expect(r.error?.message).toMatch(/Stop one with shell_job/);
    await h.executor.close();
  });

  it('kills every background process when the executor closes', async () => {
    const h = harness({ mode: 'yolo' });
    const a = await start(h, 'sleep 300');
    const b = await start(h, "trap '' TERM; sleep 300 & sleep 300");
    await until(() => groupMembers(b.pid).length >= 2);
    await h.executor.close();
    expect(groupMembers(a.pid)).toEqual([]);
    expect(groupMembers(b.pid)).toEqual([]);
    const after = await h.call('shell_background', { command: 'sleep 1' });
    expect(after.error?.code).toBe('ABORTED');
  });

  it('stops a foreground command too when the executor closes', async () => {
    // $$ is bash's pid as seen from here only without the sandbox (sandbox.test.ts covers it inside).
    const h = harness({ mode: 'yolo', config: { sandbox: { mode: 'off' } } });
    const pidFile = join(h.root, 'pid');
    const pending = h.call('shell_exec', { command: `echo $$ > ${pidFile}; sleep 300` });
    await until(() => existsSync(pidFile) && readFileSync(pidFile, 'utf8').endsWith('\n'));
    await h.executor.close();
    expect((await pending).status).toBe('error');
    const pgid = Number(readFileSync(pidFile, 'utf8'));
    await until(() => groupMembers(pgid).length === 0);
    expect(groupMembers(pgid)).toEqual([]);
  });
});
