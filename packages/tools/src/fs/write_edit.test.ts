import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ApprovalRequest, Tool, ToolContext } from '@toolbelt/core';
import { makeHarness, type Harness } from './__fixtures__/harness.js';
import { editFile } from './edit_file.js';
import { fsTools } from './index.js';
import { writeFile } from './write_file.js';

const h = makeHarness(fsTools());
afterAll(() => h.close());
const read = (rel: string) => readFileSync(join(h.root, rel), 'utf8');

/** The context the executor would give the tool, for driving its invocation by hand. */
function contextFor(harness: Harness, tool: Tool): ToolContext {
  return {
    callId: 'by-hand',
    tool: tool.name,
    signal: new AbortController().signal,
    sessionId: 'by-hand',
    workspace: harness.workspace,
    state: new Map(),
    config: {},
    emit: () => {},
    elicit: async () => ({ action: 'decline' }),
  };
}

/** An asking harness whose approver runs `change` while the approval is pending, then approves. */
function approvingAfterChange(change: () => void) {
  return makeHarness(fsTools(), {
    mode: 'ask',
    approver: async () => {
      change();
      return { outcome: 'approve', scope: 'once' };
    },
  });
}

describe('write_file', () => {
  it('creates a file with its parents and reports bytes written', async () => {
    const r = await h.call('write_file', { path: 'deep/er/new.txt', content: 'hello\nworld\n' });
    expect(r.status).toBe('success');
    expect(h.text(r)).toBe('Created deep/er/new.txt: 12 bytes, 2 lines (+2 -0).');
    expect(r.metadata).toMatchObject({ bytesWritten: 12, created: true });
    expect(read('deep/er/new.txt')).toBe('hello\nworld\n');
    expect(
      h.events.some(
        (e) => e.type === 'file.changed' && e.path === join(h.root, 'deep/er/new.txt') && e.operation === 'create',
      ),
    ).toBe(true);
  });

  it('classifies as a write of the absolute path', async () => {
    const ex = await h.executor.explain({ tool: 'write_file', input: { path: 'x.txt', content: '' } });
    expect(ex.classification).toMatchObject({ effect: 'write', subject: { paths: [join(h.root, 'x.txt')] } });
  });

  it('keeps CRLF line endings and a BOM when replacing a file', async () => {
    h.write('crlf.txt', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('a\r\nb\r\n')]));
    await h.call('write_file', { path: 'crlf.txt', content: 'x\ny\n' });
    expect(readFileSync(join(h.root, 'crlf.txt'))).toEqual(
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('x\r\ny\r\n')]),
    );
  });

  it('refuses to overwrite a file changed on disk since the session read it', async () => {
    h.write('seen.txt', 'v1\n');
    await h.call('read_file', { path: 'seen.txt' }, 's1');
    writeFileSync(join(h.root, 'seen.txt'), 'v2 by someone else\n');
    const r = await h.call('write_file', { path: 'seen.txt', content: 'mine\n' }, 's1');
    expect(r.error?.code).toBe('CONFLICT');
    expect(r.error?.message).toContain('changed on disk since you last read it');
    expect(read('seen.txt')).toBe('v2 by someone else\n');
    // Another session never read it, so it has nothing to compare with.
    expect((await h.call('write_file', { path: 'seen.txt', content: 'other\n' }, 's2')).status).toBe('success');
  });

  it('refuses directories and protected files', async () => {
    expect((await h.call('write_file', { path: 'deep', content: 'x' })).error?.code).toBe('INVALID_PARAMS');
    expect((await h.call('write_file', { path: 'newdir/', content: 'x' })).error?.message).toContain(
      'create_directory',
    );
    expect((await h.call('write_file', { path: '.env', content: 'X=1' })).error?.code).toBe('PERMISSION_DENIED');
  });

  it('shows a unified diff to the approver and writes only after approval', async () => {
    const seen: ApprovalRequest[] = [];
    const asking = makeHarness(fsTools(), {
      mode: 'ask',
      approver: async (req) => (seen.push(req), { outcome: 'reject', message: 'not now' }),
    });
    asking.write('doc.txt', 'one\ntwo\n');
    const r = await asking.call('write_file', { path: 'doc.txt', content: 'one\n2\n' });
    expect(r.status).toBe('rejected');
    expect(seen[0].preview).toEqual({
      kind: 'diff',
      path: 'doc.txt',
      diff: expect.stringContaining('--- a/doc.txt\n+++ b/doc.txt\n@@ -1,2 +1,2 @@\n one\n-two\n+2\n'),
    });
    expect(readFileSync(join(asking.root, 'doc.txt'), 'utf8')).toBe('one\ntwo\n');
    await asking.close();
  });

  it('refuses when the file changes while the approval is pending', async () => {
    let target = '';
    const racing = makeHarness(fsTools(), {
      mode: 'ask',
      approver: async () => {
        writeFileSync(target, 'changed meanwhile\n');
        return { outcome: 'approve', scope: 'once' };
      },
    });
    target = racing.write('race.txt', 'base\n');
    const r = await racing.call('write_file', { path: 'race.txt', content: 'approved content\n' });
    expect(r.error?.code).toBe('CONFLICT');
    expect(readFileSync(target, 'utf8')).toBe('changed meanwhile\n');
    await racing.close();
  });

  it('keeps the approved base in its invocation, not in the input object, so the stale check holds for a copy', async () => {
    const target = h.write('copied.txt', 'base\n');
    const input = { path: 'copied.txt', content: 'approved\n' };
    // Prepared from a frozen copy: no state can hang off the object the caller holds.
    const call = await writeFile.prepare!(Object.freeze(structuredClone(input)), contextFor(h, writeFile));
    expect(await call.preview!()).toMatchObject({ kind: 'diff', diff: expect.stringContaining('-base\n+approved') });
    writeFileSync(target, 'changed meanwhile\n');
    await expect(call.run()).rejects.toMatchObject({
      code: 'CONFLICT',
      message: expect.stringContaining('changed while the write waited for approval'),
    });
    expect(read('copied.txt')).toBe('changed meanwhile\n');
  });

  it('writes what was approved when the file did not change meanwhile', async () => {
    const asking = approvingAfterChange(() => {});
    asking.write('calm.txt', 'base\n');
    const r = await asking.call('write_file', { path: 'calm.txt', content: 'approved\n' });
    expect(r.status).toBe('success');
    expect(readFileSync(join(asking.root, 'calm.txt'), 'utf8')).toBe('approved\n');
    await asking.close();
  });
});

describe('edit_file', () => {
  it('replaces a unique string and returns a diff for display', async () => {
    h.write('code.ts', 'const a = 1;\nconst b = 2;\n');
    const r = await h.call('edit_file', { path: 'code.ts', old_string: 'const b = 2;', new_string: 'const b = 3;' });
    expect(h.text(r)).toBe('Edited code.ts: 1 replacement (+1 -1 lines).');
    expect(read('code.ts')).toBe('const a = 1;\nconst b = 3;\n');
    expect(r.display).toMatchObject({ kind: 'diff', diff: expect.stringContaining('-const b = 2;\n+const b = 3;') });
  });

  it('refuses a string that is not there, with a hint', async () => {
    h.write('ws.py', 'def f():\n\treturn 1\n');
    const r = await h.call('edit_file', { path: 'ws.py', old_string: 'def f():\n    return 1', new_string: 'x' });
    expect(r.error?.code).toBe('INVALID_PARAMS');
    expect(r.error?.message).toContain('lines 1-2 match if whitespace is ignored');
  });

  it('answers a missed edit with the nearest lines, not the file', async () => {
    const body = Array.from({ length: 200 }, (_, i) => `line ${i + 1}`);
    body[120] = 'const limit = 10;';
    h.write('long.ts', body.join('\n') + '\n');
    const r = await h.call('edit_file', {
      path: 'long.ts',
      old_string: 'line 120\nconst limit = 20;\nline 122',
      new_string: 'x',
    });
    expect(r.error?.message).toBe(
      'long.ts: old_string was not found in the file; nearest is lines 120-122, first differing at line 121: "const limit = 10;". Read those lines again and copy the exact text.',
    );
  });

  it('refuses an ambiguous string unless replace_all is set', async () => {
    h.write('dup.txt', 'x\nx\n');
    expect((await h.call('edit_file', { path: 'dup.txt', old_string: 'x', new_string: 'y' })).error?.message).toContain(
      'occurs 2 times',
    );
    expect(read('dup.txt')).toBe('x\nx\n');
    await h.call('edit_file', { path: 'dup.txt', old_string: 'x', new_string: 'y', replace_all: true });
    expect(read('dup.txt')).toBe('y\ny\n');
  });

  it('applies several edits all or nothing', async () => {
    h.write('multi.txt', 'alpha\nbeta\ngamma\n');
    const bad = await h.call('edit_file', {
      path: 'multi.txt',
      edits: [
        { old_string: 'alpha', new_string: 'A' },
        { old_string: 'delta', new_string: 'D' },
      ],
    });
    expect(bad.error?.message).toContain('edit 2 of 2');
    expect(read('multi.txt')).toBe('alpha\nbeta\ngamma\n');
    const ok = await h.call('edit_file', {
      path: 'multi.txt',
      edits: [
        { old_string: 'alpha', new_string: 'A' },
        { old_string: 'gamma', new_string: 'G' },
      ],
    });
    expect(ok.status).toBe('success');
    expect(read('multi.txt')).toBe('A\nbeta\nG\n');
  });

  it('keeps CRLF line endings and the BOM', async () => {
    const bom = Buffer.from([0xef, 0xbb, 0xbf]);
    h.write('win.cs', Buffer.concat([bom, Buffer.from('class A {\r\n  int x;\r\n}\r\n')]));
    const r = await h.call('edit_file', {
      path: 'win.cs',
      old_string: 'class A {\n  int x;',
      new_string: 'class A {\n  int x;\n  int y;',
    });
    expect(r.status).toBe('success');
    expect(readFileSync(join(h.root, 'win.cs'))).toEqual(
      Buffer.concat([bom, Buffer.from('class A {\r\n  int x;\r\n  int y;\r\n}\r\n')]),
    );
  });

  it('edits a file with mixed line endings where the text has CRLF', async () => {
    h.write('mixed.txt', 'a\nb\r\nc\r\n');
    expect((await h.call('edit_file', { path: 'mixed.txt', old_string: 'b\nc', new_string: 'B\nC' })).status).toBe(
      'success',
    );
    expect(read('mixed.txt')).toBe('a\nB\r\nC\r\n');
  });

  it('refuses to edit a file changed since the session read it', async () => {
    h.write('stale.txt', 'one\n');
    await h.call('read_file', { path: 'stale.txt' }, 'reader');
    await new Promise((r) => setTimeout(r, 5));
    writeFileSync(join(h.root, 'stale.txt'), 'one\ntwo\n');
    const r = await h.call('edit_file', { path: 'stale.txt', old_string: 'one', new_string: '1' }, 'reader');
    expect(r.error?.code).toBe('CONFLICT');
    await h.call('read_file', { path: 'stale.txt' }, 'reader');
    expect(
      (await h.call('edit_file', { path: 'stale.txt', old_string: 'one', new_string: '1' }, 'reader')).status,
    ).toBe('success');
    // Its own edit does not make the next edit stale.
    expect(
      (await h.call('edit_file', { path: 'stale.txt', old_string: 'two', new_string: '2' }, 'reader')).status,
    ).toBe('success');
    expect(read('stale.txt')).toBe('1\n2\n');
  });

  it('refuses when the file changes while the approval is pending', async () => {
    let target = '';
    const racing = approvingAfterChange(() => writeFileSync(target, 'alpha\nchanged meanwhile\n'));
    target = racing.write('race.txt', 'alpha\nbeta\n');
    const r = await racing.call('edit_file', { path: 'race.txt', old_string: 'alpha', new_string: 'ALPHA' });
    expect(r.error?.code).toBe('CONFLICT');
    expect(r.error?.message).toContain('changed while the edit waited for approval');
    expect(readFileSync(target, 'utf8')).toBe('alpha\nchanged meanwhile\n');
    await racing.close();
  });

  it('keeps the approved base in its invocation, so the stale check holds for a copy of the input', async () => {
    const target = h.write('copied.md', 'alpha\nbeta\n');
    const input = { path: 'copied.md', old_string: 'beta', new_string: 'BETA' };
    const call = await editFile.prepare!(Object.freeze(structuredClone(input)), contextFor(h, editFile));
    expect(await call.preview!()).toMatchObject({ kind: 'diff', diff: expect.stringContaining('-beta\n+BETA') });
    writeFileSync(target, 'alpha\nbeta\ngamma\n');
    await expect(call.run()).rejects.toMatchObject({ code: 'CONFLICT' });
    expect(read('copied.md')).toBe('alpha\nbeta\ngamma\n');
  });

  it('keeps the permission bits of the edited file', async () => {
    const p = h.write('run.sh', '#!/bin/sh\necho a\n');
    const { chmodSync } = await import('node:fs');
    chmodSync(p, 0o755);
    await h.call('edit_file', { path: 'run.sh', old_string: 'echo a', new_string: 'echo b' });
    expect(statSync(p).mode & 0o777).toBe(0o755);
  });

  it('refuses missing files, binary files and mixed argument forms', async () => {
    expect((await h.call('edit_file', { path: 'ghost.txt', old_string: 'a', new_string: 'b' })).error?.code).toBe(
      'NOT_FOUND',
    );
    h.write('bin.dat', Buffer.from([1, 0, 2, 0]));
    expect((await h.call('edit_file', { path: 'bin.dat', old_string: 'a', new_string: 'b' })).error?.message).toContain(
      'binary',
    );
    const both = await h.call('edit_file', {
      path: 'code.ts',
      old_string: 'a',
      new_string: 'b',
      edits: [{ old_string: 'a', new_string: 'b' }],
    });
    expect(both.error?.message).toContain('not both');
    expect((await h.call('edit_file', { path: 'code.ts', old_string: 'a' })).error?.message).toContain(
      'old_string and new_string',
    );
  });
});
