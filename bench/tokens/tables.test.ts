import { describe, expect, it } from 'vitest';
import { count, resultText } from './count.mjs';
import { goals } from './tables.mjs';

const t = (o200k: number) => ({ o200k, cl100k: o200k });
// The rows bench/tokens builds, with figures chosen around each goal's limit.
function rows(over: Partial<Record<string, { ours: number; theirs?: number }>> = {}) {
  const row = (key: string, ours: number, theirs: number, extra = {}) => {
    const o = over[key];
    return { key, what: key, ours: t(o?.ours ?? ours), theirs: t(o?.theirs ?? theirs), ...extra };
  };
  return [
    { ...row('defs', 2900, 1652), what: 'all definitions (14 vs 28 tools)' },
    row('files', 900, NaN),
    row('groups', 1000, 2797),
    row('start', 1600, 1652),
    row('read', 1200, 1000, { anchor: 'raw text' }),
    row('grep', 105, 100, { anchor: 'rg -n --heading' }),
    row('recursive', 40, 100),
  ];
}

describe('bench/tokens goals', () => {
  it('meets every goal at its limit, and fails each one a token past it', () => {
    expect(goals(rows()).every((g) => g.met)).toBe(true);
    const past = { defs: 3001, files: 901, groups: 1001, start: 1652, read: 1201, grep: 106, recursive: 41 };
    for (const [key, ours] of Object.entries(past)) {
      const failed = goals(rows({ [key]: { ours } })).filter((g) => !g.met);
      expect(failed, key).toHaveLength(1);
    }
  });

  it('holds the 8 file tools under server-filesystem a tool when that is below 900', () => {
    const cheap = rows({ defs: { ours: 2900, theirs: 1400 } }); // 100 a tool: 8 tools may cost 800
    expect(goals(cheap).find((g) => g.goal.includes('8 file'))?.met).toBe(false);
  });

  it('reports the --groups goals as not met, saying why, when the build refuses the flag', () => {
    const all = rows().filter((r) => r.key !== 'groups' && r.key !== 'start');
    all.push({ key: 'groups', what: 'groups', missing: 'not available: this build refuses --groups' } as never);
    const grouped = goals(all).filter((g) => g.goal.includes('groups') || g.goal.includes('agent start'));
    expect(grouped).toHaveLength(2);
    for (const g of grouped)
      expect(g).toMatchObject({ met: false, figure: 'not available: this build refuses --groups' });
  });
});

describe('bench/tokens counting', () => {
  it('counts a special-token string as plain text instead of throwing', () => {
    const plain = count('a <|endoftext|> b');
    expect(plain.o200k).toBeGreaterThan(3);
    expect(plain.cl100k).toBeGreaterThan(3);
  });

  it('counts structuredContent on top of the text blocks', () => {
    const text = { content: [{ type: 'text', text: 'hello' }] };
    expect(resultText(text)).toBe('hello');
    expect(resultText({ ...text, structuredContent: { content: 'hello' } })).toBe('hello\n{"content":"hello"}');
  });
});
