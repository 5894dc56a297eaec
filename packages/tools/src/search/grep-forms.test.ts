// grep's context on one side (-B/-A beside -C) and the grep -n line form, on both engines.
import { afterAll, describe, expect, it } from 'vitest';
import { makeHarness } from '../fs/__fixtures__/harness.js';
import { findRg } from './engine.js';
import { createGrep } from './index.js';

const engines = findRg() ? (['rg', 'js'] as const) : (['js'] as const);

describe.each(engines)('grep context and line form (%s engine)', (engine) => {
  const h = makeHarness([createGrep({ engine })]);
  h.write('g/a.txt', 'one\ntwo\nomega 3\nfour\nfive\nsix\nomega 7\n');
  h.write('g/b.txt', 'zero\nomega 2\n');
  afterAll(() => h.close());

  it('shows lines before only, or after only, and a side given wins over context', async () => {
    const before = await h.call('grep', { pattern: 'omega', path: 'g/a.txt', before: 2 });
    expect(h.text(before)).toBe(
      'g/a.txt\n1-one\n2-two\n3:omega 3\n--\n5-five\n6-six\n7:omega 7\n\n2 matching lines in 1 file.',
    );
    const after = await h.call('grep', { pattern: 'omega', path: 'g/a.txt', after: 1 });
    expect(h.text(after)).toBe('g/a.txt\n3:omega 3\n4-four\n--\n7:omega 7\n\n2 matching lines in 1 file.');
    const mixed = await h.call('grep', { pattern: 'omega', path: 'g/a.txt', context: 2, after: 0 });
    expect(h.text(mixed)).toBe(h.text(before));
  });

  it('prints file:line:text with output_mode lines, context as file-line-text and -- between groups', async () => {
    const plain = await h.call('grep', { pattern: 'omega', path: 'g', output_mode: 'lines' });
    expect(h.text(plain)).toBe(
      'g/a.txt:3:omega 3\ng/a.txt:7:omega 7\ng/b.txt:2:omega 2\n\n3 matching lines in 2 files.',
    );
    const around = await h.call('grep', { pattern: 'omega', path: 'g', output_mode: 'lines', before: 1 });
    expect(h.text(around)).toBe(
      [
        'g/a.txt-2-two',
        'g/a.txt:3:omega 3',
        '--',
        'g/a.txt-6-six',
        'g/a.txt:7:omega 7',
        '--',
        'g/b.txt-1-zero',
        'g/b.txt:2:omega 2',
        '',
        '3 matching lines in 2 files.',
      ].join('\n'),
    );
  });

  it('keeps the grouped form by default (control for the line form)', async () => {
    expect(h.text(await h.call('grep', { pattern: 'omega', path: 'g/b.txt' }))).toBe(
      'g/b.txt\n2:omega 2\n\n1 matching line in 1 file.',
    );
  });

  it('refuses more than 50 lines on a side', async () => {
    const r = await h.call('grep', { pattern: 'omega', after: 51 });
    expect(r.error).toMatchObject({
      code: 'INVALID_PARAMS',
      message: 'Invalid parameters for grep: `after` is at most 50 lines',
    });
    expect((await h.call('grep', { pattern: 'omega', path: 'g/b.txt', after: 50 })).status).toBe('success');
  });
});
