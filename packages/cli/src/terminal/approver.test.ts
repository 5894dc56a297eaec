import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { ApprovalRequest } from '@toolbelt/core';
import { terminalApprover } from './approver.js';

const request: ApprovalRequest = {
  callId: 'c1',
  sessionId: 's',
  tool: 'edit_file',
  description: 'Edits a file.',
  input: { path: 'src/main.rs' },
  effect: 'write',
  reason: 'mode "safe" says ask for write calls',
  preview: { kind: 'diff', path: 'src/main.rs', diff: '-old line\n+new line' },
  warnings: [],
  remember: { kind: 'tool', tool: 'edit_file' },
};

const destructive: ApprovalRequest = {
  ...request,
  tool: 'shell_exec',
  input: { command: 'rm -r build/' },
  effect: 'destructive',
  reason: 'mode "safe" says ask for destructive calls',
  preview: { kind: 'command', command: 'rm -r build/', cwd: '.', classification: 'destructive: rm -r build/' },
  remember: { kind: 'exact', tool: 'shell_exec', command: 'rm -r build/' },
};

async function answer(lines: string[], req: ApprovalRequest = request) {
  const input = new PassThrough();
  const output = new PassThrough();
  let shown = '';
  output.on('data', (d) => (shown += d));
  const approve = terminalApprover(input, output);
  const pending = approve(req, new AbortController().signal);
  for (const line of lines) input.write(`${line}\n`);
  const decision = await pending;
  return { decision, shown };
}

describe('terminal approver', () => {
  it('shows the tool, parameters and preview, and approves once on y', async () => {
    const { decision, shown } = await answer(['y']);
    expect(decision).toMatchObject({ outcome: 'approve', scope: 'once' });
    expect(shown).toContain('Tool approval: edit_file');
    expect(shown).toContain('"path": "src/main.rs"');
    expect(shown).toContain('+new line');
    expect(shown).toContain('[a]lways (every edit_file call)');
  });

  it('a destructive call is confirmed by typing yes; anything else goes back to the question', async () => {
    const { decision, shown } = await answer(['y', 'y', 'a', 'YES'], destructive);
    expect(decision).toEqual({ outcome: 'approve', scope: 'always', by: 'terminal' });
    expect(shown).toContain('This call is destructive: rm -r build/.');
    expect(shown.match(/Type "yes" to run it/g)).toHaveLength(2);
    expect(shown.match(/Approve\? \[y\]es/g)).toHaveLength(2);
  });

  it('a destructive call is rejected on n without a confirmation, and when the input closes at the confirmation', async () => {
    expect((await answer(['n', ''], destructive)).decision).toEqual({ outcome: 'reject', by: 'terminal' });
    const input = new PassThrough();
    const pending = terminalApprover(input, new PassThrough())(destructive, new AbortController().signal);
    input.end('y\n');
    expect(await pending).toMatchObject({ outcome: 'reject', message: 'no answer: the terminal input closed' });
  });

  it('shows where in the conversation the call comes from, when the caller said', async () => {
    const { shown } = await answer(['y'], { ...request, context: 'Fixing the authentication bug' });
    expect(shown).toMatch(/Tool approval: edit_file \(write\)\nContext: Fixing the authentication bug\nWhy asked/);
    expect((await answer(['y'])).shown).not.toContain('Context:');
  });

  it('rejects on n and passes the message on to the model', async () => {
    const { decision } = await answer(['n', 'Wrong file path']);
    expect(decision).toEqual({ outcome: 'reject', message: 'Wrong file path', by: 'terminal' });
  });

  it('approves always on a', async () => {
    expect((await answer(['a'])).decision).toMatchObject({ outcome: 'approve', scope: 'always' });
  });

  it('explains on ? and asks again; unknown answers are asked again too', async () => {
    const { decision, shown } = await answer(['?', 'maybe', 'y']);
    expect(decision.outcome).toBe('approve');
    expect(shown).toContain('Edits a file.');
    expect(shown).toContain('Please answer y, n, a or ?');
  });

  it('rejects when the input closes without an answer', async () => {
    const input = new PassThrough();
    const pending = terminalApprover(input, new PassThrough())(request, new AbortController().signal);
    input.end();
    expect((await pending).outcome).toBe('reject');
  });
});
