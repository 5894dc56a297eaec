import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../define.js';
import { Policy } from '../policy/policy.js';
import { ToolRegistry } from '../registry.js';
import { Executor } from './executor.js';
import { MemoryLogSink } from './log.js';

const save = defineTool({
  name: 'save',
  description: 'd',
  effect: 'read',
  input: z.object({
    path: z.string(),
    content: z.string(),
    edits: z.array(z.object({ new_string: z.string() })).optional(),
  }),
  execute: ({ content }) => `saved ${content}`,
});

async function logged(logRedaction?: ConstructorParameters<typeof Executor>[0]['logRedaction']) {
  const log = new MemoryLogSink();
  const ex = new Executor({
    registry: new ToolRegistry().register(save),
    policy: new Policy({ mode: 'yolo' }),
    log,
    ...(logRedaction ? { logRedaction } : {}),
  });
  await ex.call({
    tool: 'save',
    input: { path: 'a.txt', content: 'secret text', edits: [{ new_string: 'more secret' }] },
  });
  return log.entries[0]!;
}

describe('log redaction', () => {
  it('logs inputs and results in full by default', async () => {
    const entry = await logged();
    expect(entry.params).toMatchObject({ content: 'secret text', edits: [{ new_string: 'more secret' }] });
    expect(entry.result).toEqual([{ type: 'text', text: 'saved secret text' }]);
  });

  it('keeps only the length of named parameters, at any depth, and can leave results out', async () => {
    const entry = await logged({ params: ['content', 'new_string'], results: false });
    expect(entry.params).toEqual({
      path: 'a.txt',
      content: '[redacted: 11 chars]',
      edits: [{ new_string: '[redacted: 11 chars]' }],
    });
    expect(entry.result).toBeUndefined();
    expect(entry.status).toBe('success');
  });
});
