// A server's question in the terminal: each field asked in turn, enter takes the default, a wrong
// value is asked again, and "n" declines.
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { ElicitationRequest } from '@toolbelt/core';
import { terminalElicitor } from './elicitor.js';
import { TerminalPrompt } from './prompt.js';

const request: ElicitationRequest = {
  callId: 'c1',
  sessionId: 's',
  tool: 'fx__ask_user',
  source: 'MCP server "fx"',
  message: 'Which name?',
  schema: {
    type: 'object',
    properties: {
      name: { type: 'string', title: 'Name' },
      count: { type: 'integer', default: 3 },
      color: { type: 'string', enum: ['red', 'green'] },
      sure: { type: 'boolean' },
    },
    required: ['name'],
  },
};

function terminal(lines: string[]) {
  const input = new PassThrough();
  const output = new PassThrough();
  let shown = '';
  output.on('data', (d) => (shown += d));
  input.end(lines.map((l) => `${l}\n`).join(''));
  const prompt = new TerminalPrompt(input, output);
  return { elicit: terminalElicitor(prompt), shown: () => shown, close: () => prompt.close() };
}

describe('terminal elicitation', () => {
  it('asks each field, applies defaults on enter, and asks again after a wrong value', async () => {
    const t = terminal(['y', '', 'Grace', '2.5', '', 'blue', 'red', 'y']);
    const answer = await t.elicit(request, new AbortController().signal);
    t.close();
    expect(answer).toEqual({ action: 'accept', content: { name: 'Grace', count: 3, color: 'red', sure: true } });
    expect(t.shown()).toContain('MCP server "fx" asks (during fx__ask_user):\nWhich name?');
    expect(t.shown()).toContain('This one is required.');
    expect(t.shown()).toContain('pick one of red, green');
  });

  it('declines on n, and cancels when the input ends', async () => {
    const declined = terminal(['n']);
    expect(await declined.elicit(request, new AbortController().signal)).toEqual({ action: 'decline' });
    declined.close();
    const ended = terminal(['y']);
    expect(await ended.elicit(request, new AbortController().signal)).toEqual({ action: 'cancel' });
    ended.close();
  });
});
