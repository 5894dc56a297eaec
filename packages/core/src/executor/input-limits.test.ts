// Inputs too deep or too large are refused with INVALID_PARAMS before any schema, hook or log
// walks them; the call settles as a value and the log keeps a note instead of the input.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../define.js';
import { MAX_INPUT_CHARS } from '../input-shape.js';
import { ToolRegistry } from '../registry.js';
import { Executor } from './executor.js';
import { MemoryLogSink } from './log.js';

const deepText = (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);

function setup() {
  const seen = { parsed: 0, ran: 0 };
  // A schema that counts how often it is reached, and accepts anything.
  const input = z.custom<Record<string, unknown>>(() => {
    seen.parsed++;
    return true;
  });
  const tool = defineTool({
    name: 'take',
    description: 'Takes anything.',
    effect: 'read',
    input,
    execute: () => (seen.ran++, 'ok'),
  });
  const log = new MemoryLogSink();
  const executor = new Executor({ registry: new ToolRegistry().register(tool), log });
  return { executor, log, seen };
}

describe('input limits', () => {
  it('refuses input nested 100,000 deep with INVALID_PARAMS, before the schema, and logs a note', async () => {
    const { executor, log, seen } = setup();
    const r = await executor.call({ tool: 'take', input: JSON.parse(deepText(100_000)) });
    expect(r.status).toBe('error');
    expect(r.error).toEqual({
      code: 'INVALID_PARAMS',
      recoverable: true,
      message:
        'Invalid parameters for take: the input nests objects and arrays more than 64 levels deep; send a flatter value.',
    });
    expect(seen).toEqual({ parsed: 0, ran: 0 });
    expect(log.entries[0].params).toBe('[input refused: too deep or too large to keep]');
    expect(() => JSON.stringify(log.entries)).not.toThrow();
  });

  it('judges arguments sent as a JSON string before and after parsing them', async () => {
    const { executor, seen } = setup();
    const deep = await executor.call({ tool: 'take', input: deepText(100_000) });
    expect(deep.error?.message).toContain('levels deep');
    const long = await executor.call({ tool: 'take', input: `{"t":"${'x'.repeat(MAX_INPUT_CHARS)}"}` });
    expect(long.error?.message).toBe(
      'Invalid parameters for take: the input is larger than 4,194,304 characters; send less (e.g. a path instead of file contents).',
    );
    expect(seen.parsed).toBe(0);
  });

  it('refuses a 10 MB input, and runs one just under the limit', async () => {
    const { executor, seen } = setup();
    const big = await executor.call({ tool: 'take', input: { text: 'x'.repeat(10 * 1024 * 1024) } });
    expect(big.error?.code).toBe('INVALID_PARAMS');
    expect(seen.parsed).toBe(0);
    const fits = await executor.call({ tool: 'take', input: { text: 'x'.repeat(MAX_INPUT_CHARS - 100) } });
    expect(fits.status).toBe('success');
    expect(seen).toEqual({ parsed: 1, ran: 1 });
  });

  it('explain() and runAll() refuse the same input without throwing', async () => {
    const { executor, seen } = setup();
    const input = JSON.parse(deepText(10_000));
    expect((await executor.explain({ tool: 'take', input })).error?.code).toBe('INVALID_PARAMS');
    const [r] = await executor.runAll([{ tool: 'take', input }]);
    expect(r.error?.code).toBe('INVALID_PARAMS');
    expect(seen.parsed).toBe(0);
  });
});
