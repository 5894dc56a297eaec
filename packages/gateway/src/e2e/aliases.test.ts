// A call over HTTP by another tool set's name for a tool runs, is recorded and reported as the tool.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineTool } from '@toolbelt/core';
import { startGateway, type Harness } from '../__fixtures__/harness.js';

const echo = defineTool({
  name: 'echo',
  description: 'Returns its text.',
  input: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'], additionalProperties: false },
  effect: 'read',
  aliases: { names: ['say'], params: { words: 'text' } },
  execute: (input: { text: string }) => `echo: ${input.text}`,
});
const other = defineTool({
  name: 'shout',
  description: 'Shouts.',
  input: { type: 'object' },
  effect: 'read',
  aliases: { names: ['speak'] },
  execute: () => 'HI',
});
const rival = defineTool({
  name: 'whisper',
  description: 'Whispers.',
  input: { type: 'object' },
  effect: 'read',
  aliases: { names: ['speak'] },
  execute: () => 'hi',
});

let h: Harness;
beforeAll(async () => {
  h = await startGateway({ tools: [echo, other, rival] });
});
afterAll(() => h.cleanup());

describe('aliases over the gateway', () => {
  it('runs an alias as its tool, records the call under the tool and says the name it came with', async () => {
    const c = h.client();
    const r = await c.call('run-alias', 'say', { words: 'hello' });
    expect([r.status, r.tool, r.metadata?.calledAs]).toEqual(['success', 'echo', 'say']);
    expect(r.content).toEqual([{ type: 'text', text: 'echo: hello' }]);
    expect((await c.getCall(r.callId)).tool).toBe('echo');
  });

  it('refuses a name two tools claim, with both, as an unknown tool (control: not run, not recorded)', async () => {
    const r = await h.client().call('run-alias', 'speak', {});
    expect(r.error?.code).toBe('UNKNOWN_TOOL');
    expect(r.error?.message).toContain('shout, whisper');
  });
});
