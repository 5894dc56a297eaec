// The approval an MCP client shows its person: what runs, with nothing hidden in it.
import { describe, expect, it } from 'vitest';
import type { ApprovalRequest } from '@toolbelt/core';
import { approvalMessage } from './elicitation-approver.js';

describe('approvalMessage', () => {
  it('shows a command holding a carriage return, ANSI escapes and a bidi override escaped', () => {
    const command = 'rm -rf ~ #\r\x1b[2K\x1b[8m\u202eecho hello';
    const request: ApprovalRequest = {
      callId: 'c1',
      sessionId: 's',
      tool: 'shell_exec',
      description: 'Runs a command.',
      input: { command },
      effect: 'execute',
      reason: 'mode "safe" says ask for execute calls',
      preview: { kind: 'command', command, cwd: '.' },
      warnings: [],
      remember: { kind: 'exact', tool: 'shell_exec', command },
    };
    const message = approvalMessage(request);
    expect(command).toMatch(/[\r\x1b\u202e]/);
    expect(message).not.toMatch(/[\r\x1b\u202e]/);
    expect(message).toContain('Command: rm -rf ~ #\\r\\e[2K\\e[8m<U+202E>echo hello');
    expect(message).toContain('This call holds control, bidi or invisible characters');
  });
});
