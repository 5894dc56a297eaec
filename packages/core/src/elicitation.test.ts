// A tool's question goes to the front end its call came from; with nobody there it is declined,
// and acceptDefaults (`--yes`) answers with the form's defaults.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from './define.js';
import {
  acceptDefaults,
  withDefaults,
  type ElicitationAnswer,
  type ElicitationRequest,
  type ElicitationSchema,
} from './elicitation.js';
import { Executor, type ExecutorOptions } from './executor/executor.js';
import { Policy } from './policy/policy.js';
import { ToolRegistry } from './registry.js';

const schema: ElicitationSchema = {
  type: 'object',
  properties: {
    name: { type: 'string', default: 'Ada' },
    count: { type: 'integer', default: 3 },
    note: { type: 'string' },
  },
  required: ['name'],
};

const asking = defineTool({
  name: 'asking',
  description: 'Asks a question.',
  input: z.object({}),
  effect: 'read',
  execute: async (_input, ctx) => JSON.stringify(await ctx.elicit({ source: 'test', message: 'Who?', schema })),
});

function executor(opts: Partial<ExecutorOptions>) {
  return new Executor({ registry: new ToolRegistry().register(asking), policy: new Policy({ mode: 'safe' }), ...opts });
}

describe('elicitation routing', () => {
  it("asks the elicitor of the call's origin, with the call's id, tool and origin", async () => {
    const seen: ElicitationRequest[] = [];
    const ex = executor({
      elicitors: { terminal: async (r) => (seen.push(r), { action: 'accept', content: { name: 'Grace' } }) },
    });
    const result = await ex.call({ tool: 'asking', callId: 'c1', origin: 'terminal' });
    expect(result.status).toBe('success');
    expect(JSON.parse(result.content[0].type === 'text' ? result.content[0].text : '')).toEqual({
      action: 'accept',
      content: { name: 'Grace' },
    });
    expect(seen).toMatchObject([{ callId: 'c1', tool: 'asking', origin: 'terminal', source: 'test', message: 'Who?' }]);
  });

  it('declines a question from an origin nobody answers for', async () => {
    const ex = executor({ elicitors: { terminal: acceptDefaults } });
    const result = await ex.call({ tool: 'asking', origin: 'http' });
    expect(result.content[0]).toEqual({ type: 'text', text: JSON.stringify({ action: 'decline' }) });
  });

  it('takes one elicitor per origin', () => {
    const ex = executor({});
    const leave = ex.elicitations.register('mcp', acceptDefaults);
    expect(() => ex.elicitations.register('mcp', acceptDefaults)).toThrow('calls from "mcp" already have an elicitor');
    leave();
    expect(() => ex.elicitations.register('mcp', acceptDefaults)).not.toThrow();
  });
});

describe('defaults', () => {
  const request = (s: ElicitationSchema): ElicitationRequest => ({
    callId: 'c',
    sessionId: 's',
    tool: 't',
    source: 'x',
    message: 'm',
    schema: s,
  });

  it('accepts with every default when each required field has one', async () => {
    expect(await acceptDefaults(request(schema), new AbortController().signal)).toEqual<ElicitationAnswer>({
      action: 'accept',
      content: { name: 'Ada', count: 3 },
    });
  });

  it('declines when a required field has no default', async () => {
    const s: ElicitationSchema = { ...schema, required: ['note'] };
    expect(await acceptDefaults(request(s), new AbortController().signal)).toEqual({ action: 'decline' });
  });

  it('fills in defaults the person left out, keeping what they gave', () => {
    expect(withDefaults(schema, { name: 'Grace' })).toEqual({ name: 'Grace', count: 3 });
  });
});
