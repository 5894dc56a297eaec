import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { textOf } from '@toolbelt/core';
import { afterAll, describe, expect, it } from 'vitest';
import { groupMembers } from '../process/group.js';
import { cleanupWorkspaces, harness } from './__fixtures__/harness.js';
import { KEEP_OUTPUT_FILES } from './output-files.js';

afterAll(cleanupWorkspaces);

describe('shell_exec', () => {
  it('runs in the workspace and returns stdout, stderr and the exit code', async () => {
    const h = harness({ mode: 'yolo' });
    const r = await h.call('shell_exec', { command: 'pwd; echo oops >&2; exit 4' });
    expect(r.status).toBe('success');
    expect(textOf(r)).toBe(`${h.root}\n[stderr]\noops\n[exit code 4]`);
    expect(r.metadata).toMatchObject({
      exitCode: 4,
      signal: null,
      timedOut: false,
      cwd: '.',
      stdoutBytes: h.root.length + 1,
      stderrBytes: 5,
    });
  });

  it('tells the files a command was judged to write or delete (file.changed), as they are after it ran', async () => {
    const h = harness({ mode: 'yolo' });
    writeFileSync(join(h.root, 'old.txt'), 'x');
    const changed: [string, string][] = [];
    h.events.onType('file.changed', (e) => changed.push([e.path, e.operation]));
    await h.call('shell_exec', { command: 'echo hi > sub/out.txt && rm old.txt' });
    expect(changed.sort()).toEqual([
      [join(h.root, 'old.txt'), 'delete'],
      [join(h.root, 'sub', 'out.txt'), 'write'],
    ]);
    changed.length = 0;
    await h.call('shell_exec', { command: 'ls' });
    expect(changed).toEqual([]);
  });

  it('runs in a cwd inside the workspace, and refuses one outside or missing', async () => {
    const h = harness({ mode: 'yolo' });
    expect(textOf(await h.call('shell_exec', { command: 'pwd', cwd: 'sub' }))).toBe(
      `${join(h.root, 'sub')}\n[exit code 0]`,
    );
    const outside = await h.call('shell_exec', { command: 'pwd', cwd: '/' });
    expect(outside.error?.code).toBe('PERMISSION_DENIED');
    const missing = await h.call('shell_exec', { command: 'pwd', cwd: 'nope' });
    expect(missing.error?.code).toBe('NOT_FOUND');
    expect(missing.error?.message).toMatch(/cwd nope does not exist/);
  });

  it('runs reads at once in safe mode and asks before a write, showing command, cwd and classification', async () => {
    const h = harness({ mode: 'safe', answers: [{ outcome: 'approve' }] });
    expect((await h.call('shell_exec', { command: 'ls -la' })).approvedBy).toBe('auto');
    expect(h.requests).toHaveLength(0);
    writeFileSync(join(h.root, 'sub', 'old.txt'), 'x');
    const r = await h.call('shell_exec', { command: 'rm -r sub/', cwd: '.' });
    expect(r.status).toBe('success');
    expect(h.requests).toHaveLength(1);
    expect(h.requests[0].effect).toBe('destructive');
    expect(h.requests[0].preview).toEqual({
      kind: 'command',
      command: 'rm -r sub/',
      cwd: '.',
      classification: 'destructive: rm -r sub/',
    });
    expect(existsSync(join(h.root, 'sub'))).toBe(false);
  });

  it('refuses a blocked command without asking anyone', async () => {
    const h = harness({ mode: 'yolo', answers: [{ outcome: 'approve' }] });
    const r = await h.call('shell_exec', { command: 'echo hi && rm -rf ~' });
    expect(r.error?.code).toBe('PERMISSION_DENIED');
    expect(r.error?.message).toMatch(/deletes the home directory/);
    expect(h.requests).toHaveLength(0);
  });

  it('does not run a rejected command', async () => {
    const h = harness({ mode: 'safe', answers: [{ outcome: 'reject', message: 'not now' }] });
    const r = await h.call('shell_exec', { command: 'touch made.txt' });
    expect(r.status).toBe('rejected');
    expect(existsSync(join(h.root, 'made.txt'))).toBe(false);
  });

  it('streams output to the executor as tool.output events', async () => {
    const h = harness({ mode: 'yolo' });
    const seen: string[] = [];
    h.events.onType('tool.output', (e) => seen.push(`${e.stream}:${e.chunk}`));
    await h.call('shell_exec', { command: 'echo one; sleep 0.05; echo two >&2' });
    expect(seen.join('')).toContain('stdout:one\n');
    expect(seen).toContain('stderr:two\n');
  });

  it('times out with the partial output and says what to do', async () => {
    const h = harness({ mode: 'yolo' });
    const r = await h.call('shell_exec', { command: 'echo partial; sleep 60', timeout_ms: 300 });
    expect(r.status).toBe('error');
    expect(r.error?.code).toBe('TIMEOUT');
    expect(r.error?.message).toMatch(/^partial\n\[timed out after 300 ms: the whole process group was stopped/);
    expect(r.error?.message).toMatch(/larger timeout_ms \(at most 600000\), or start it with shell_background/);
  });

  it('rejects a timeout above the configured maximum', async () => {
    const h = harness({ mode: 'yolo', config: { shell: { maxTimeoutMs: 5000 } } });
    const r = await h.call('shell_exec', { command: 'true', timeout_ms: 6000 });
    expect(r.error?.code).toBe('INVALID_PARAMS');
    expect(r.error?.message).toMatch(/timeout_ms/);
  });

  it('cuts output over maxOutputBytes to head and tail, and saves all of it to a temp file it names', async () => {
    const h = harness({ mode: 'yolo', config: { shell: { maxOutputBytes: 2000 } } });
    const r = await h.call('shell_exec', { command: 'seq 1 100000; seq 1 3000 >&2' });
    const text = textOf(r);
    const file = r.metadata?.stdoutFile as string;
    const errFile = r.metadata?.stderrFile as string;
    expect(text.startsWith('1\n2\n')).toBe(true);
    expect(text).toContain(`588,895 bytes in total; all of them in ${file} ...]`);
    expect(text).toMatch(/\n99999\n100000\n\[stderr\]\n/);
    expect(text.split('\n').slice(-2)).toEqual([
      '[exit code 0]',
      `[the output above was cut; saved: stdout in full in ${file}, stderr in full in ${errFile}. Search it with shell_exec (grep -n PATTERN FILE, sed -n 'FROM,TOp' FILE); it is deleted when toolbelt closes]`,
    ]);
    expect(r.metadata).toMatchObject({ stdoutBytes: 588_895, outputTruncated: true });
    // Outside the workspace, private to this user, and exactly what the command printed.
    expect(file.startsWith(h.root)).toBe(false);
    expect(statSync(dirname(file)).mode & 0o777).toBe(0o700);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8')).toBe(Array.from({ length: 100_000 }, (_, i) => `${i + 1}\n`).join(''));
    expect(readFileSync(errFile, 'utf8')).toBe(Array.from({ length: 3000 }, (_, i) => `${i + 1}\n`).join(''));
    await h.executor.close();
    expect(existsSync(dirname(file))).toBe(false);
  });

  it('saves at most maxOutputFileBytes, says so, and saves nothing when it is 0', async () => {
    const capped = harness({ mode: 'yolo', config: { shell: { maxOutputBytes: 2000, maxOutputFileBytes: 5000 } } });
    const r = await capped.call('shell_exec', { command: 'seq 1 100000' });
    const file = r.metadata?.stdoutFile as string;
    expect(textOf(r)).toContain(`588,895 bytes in total; the first 5,000 in ${file} ...]`);
    expect(textOf(r)).toContain(`saved: stdout (the first 5,000 bytes) in ${file}.`);
    expect(readFileSync(file, 'utf8')).toBe(
      Array.from({ length: 100_000 }, (_, i) => `${i + 1}\n`)
        .join('')
        .slice(0, 5000),
    );
    await capped.executor.close();
    const off = harness({ mode: 'yolo', config: { shell: { maxOutputBytes: 2000, maxOutputFileBytes: 0 } } });
    const plain = await off.call('shell_exec', { command: 'seq 1 100000' });
    expect(textOf(plain)).toMatch(/\[\.\.\. [\d,]+ bytes omitted; 588,895 bytes in total \.\.\.\]/);
    expect(textOf(plain)).not.toContain('saved');
    expect(plain.metadata?.stdoutFile).toBeUndefined();
    expect(textOf(await off.call('shell_exec', { command: 'echo small' }))).toBe('small\n[exit code 0]');
  });

  it(`keeps the newest ${KEEP_OUTPUT_FILES} saved outputs and deletes older ones`, async () => {
    const h = harness({ mode: 'yolo', config: { shell: { maxOutputBytes: 256 } } });
    const files: string[] = [];
    for (let i = 0; i <= KEEP_OUTPUT_FILES; i++)
      files.push((await h.call('shell_exec', { command: 'seq 1 1000' })).metadata?.stdoutFile as string);
    expect(new Set(files).size).toBe(KEEP_OUTPUT_FILES + 1);
    expect(files.map((f) => existsSync(f))).toEqual([false, ...Array(KEEP_OUTPUT_FILES).fill(true)]);
    await h.executor.close();
  });

  it('stops the process group when the caller cancels', async () => {
    // $$ is bash's pid as seen from here only without the sandbox (sandbox.test.ts covers it inside).
    const h = harness({ mode: 'yolo', config: { sandbox: { mode: 'off' } } });
    const ac = new AbortController();
    const pid = join(h.root, 'pid');
    const pending = h.call('shell_exec', { command: `echo $$ > ${pid}; sleep 60 & sleep 60` }, { signal: ac.signal });
    for (let i = 0; i < 200 && !existsSync(pid); i++) await new Promise((r) => setTimeout(r, 10));
    ac.abort();
    expect((await pending).error?.code).toBe('ABORTED');
    const pgid = Number(readFileSync(pid, 'utf8'));
    for (let i = 0; i < 100 && groupMembers(pgid).length; i++) await new Promise((r) => setTimeout(r, 20));
    expect(groupMembers(pgid)).toEqual([]);
  });

  it('remembers an "always" approval as a command prefix, never for a compound command', async () => {
    const h = harness({ mode: 'safe', answers: [{ outcome: 'approve', scope: 'session' }, { outcome: 'reject' }] });
    const first = await h.call('shell_exec', { command: 'npm run test -- --version' });
    expect(first.approvedBy).toBe('user');
    expect(h.requests[0].remember).toEqual({ kind: 'prefix', tool: 'shell_exec', prefix: 'npm run test' });
    const again = await h.call('shell_exec', { command: 'npm run test -- --help' });
    expect(again.approvedBy).toBe('remembered');
    const widened = await h.call('shell_exec', { command: 'npm run test && touch x' });
    expect(widened.status).toBe('rejected');
    expect(h.requests).toHaveLength(2);
  });

  it('applies command-prefix rules to every part of the script', async () => {
    const tools = ['shell_exec', 'shell_background'];
    const h = harness({
      mode: 'safe',
      rules: [
        { tool: tools, command: 'touch', action: 'allow' },
        { tool: tools, command: 'rm', action: 'deny', reason: 'shell.deny in config' },
      ],
    });
    expect((await h.call('shell_exec', { command: 'touch a.txt' })).approvedBy).toBe('rule');
    // An allow rule covers a script only when every command matches.
    expect((await h.call('shell_exec', { command: 'touch b.txt && chmod +x b.txt' })).status).toBe('rejected');
    // A deny rule hits a command hidden in a wrapper, a substitution or bash -c.
    for (const command of ['sudo rm x', 'echo $(rm x)', "bash -c 'rm x'", 'xargs rm']) {
      expect((await h.call('shell_exec', { command })).error?.code, command).toBe('PERMISSION_DENIED');
    }
  });

  it('applies resource limits from the config', async () => {
    const h = harness({ mode: 'yolo', config: { shell: { limits: { openFiles: 50 } } } });
    expect(textOf(await h.call('shell_exec', { command: 'ulimit -n' }))).toBe('50\n[exit code 0]');
  });
});
