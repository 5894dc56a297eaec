// Classification has a budget: a short brace expansion once made ten million words and held a
// gateway for 100 s. Over any cap the command is not a read (it asks), and the reason says why.
// Nothing here measures time: the clock is injected where the time cap is tested.
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { classifyCommand } from './classify.js';

const cwd = realpathSync(mkdtempSync(join(tmpdir(), 'tb-budget-')));
writeFileSync(join(cwd, 'a.txt'), 'a\n');
afterAll(() => rmSync(cwd, { recursive: true, force: true }));
// The clock stands still unless a test moves it: a loaded machine must not turn a read into an ask.
const opts = { cwd, roots: [cwd], home: '/nonexistent-home', env: {}, now: () => 0 };
const TEN = '{a,b,c,d,e,f,g,h,i,j}';

describe('the classification budget', () => {
  it('asks about the brace bomb (7 groups of 10: ten million words) as too large', async () => {
    const bomb = `echo ${TEN.repeat(7)}`;
    expect(bomb.length).toBeLessThan(160);
    const c = await classifyCommand(bomb, opts);
    expect(c.effect).toBe('execute');
    expect(c.reason).toMatch(/too large to check: its brace expansions and globs make more than 10000 words/);
  });

  it('asks about a sequence too long to expand, without expanding it', async () => {
    const c = await classifyCommand('echo {1..99999999999}', opts);
    expect(c.reason).toMatch(/too large to check/);
  });

  it('expands up to the cap: 4 groups of 10 are 10,000 words and still a read', async () => {
    const c = await classifyCommand(`echo ${TEN.repeat(4)}`, opts);
    expect(c.effect).toBe('read');
  });

  it('asks about a script over 64 KB without parsing it', async () => {
    const c = await classifyCommand(`echo ${'x'.repeat(64 * 1024)}`, opts);
    expect(c.reason).toMatch(/too large to check: the script is longer than 65536 characters/);
  });

  it('asks about a script with more syntax nodes than the cap', async () => {
    const script = Array.from({ length: 200 }, () => 'echo x').join('; ');
    expect((await classifyCommand(script, opts)).effect).toBe('read');
    const c = await classifyCommand(script, { ...opts, limits: { nodes: 100 } });
    expect(c.reason).toMatch(/too large to check: its syntax has more than 100 parts/);
  });

  it('counts the nodes of nested scripts (bash -c) too', async () => {
    const inner = Array.from({ length: 60 }, () => 'echo x').join('; ');
    const c = await classifyCommand(`bash -c '${inner}'`, { ...opts, limits: { nodes: 150 } });
    expect(c.reason).toMatch(/too large to check/);
  });

  it('stops walking when the time budget is spent (a clock that jumps a second per reading)', async () => {
    let t = 0;
    const now = () => (t += 1_000);
    const script = Array.from({ length: 500 }, (_, i) => `echo ${i}`).join('\n');
    const c = await classifyCommand(script, { ...opts, now });
    expect(c.effect).toBe('execute');
    expect(c.reason).toMatch(/too large to check: (checking|parsing) it took longer than 2000 ms/);
    // A parse cancelled half-way leaves nothing behind for the next one.
    const next = await classifyCommand('cat a.txt', opts);
    expect([next.effect, next.subject?.commands]).toEqual(['read', ['cat a.txt']]);
  });

  it('counts the names globs expand to against the same cap', async () => {
    for (let i = 0; i < 30; i++) writeFileSync(join(cwd, `f${i}.txt`), '');
    const plain = await classifyCommand('ls *.txt', opts);
    expect(plain.effect, plain.reason).toBe('read');
    const c = await classifyCommand('ls *.txt *.txt', { ...opts, limits: { words: 40 } });
    expect(c.reason).toMatch(/too large to check/);
  });

  it('classifies a big script under every cap as usual', async () => {
    const script = Array.from({ length: 2_000 }, (_, i) => `cat a.txt | grep x${i}`).join('\n');
    expect(script.length).toBeGreaterThan(40_000);
    const c = await classifyCommand(script, opts);
    expect(c.effect).toBe('read');
  });
});
