import { describe, expect, it } from 'vitest';
import { workDifferences } from './same-work.mjs';

const ANSWER = JSON.stringify({
  status: 'success',
  content: [{ type: 'text', text: 'The quick brown fox' }],
  isError: false,
});
const run = (subject: string, over = {}) => ({
  subject,
  tool: 'read_note',
  ok: 100,
  failed: 0,
  answers: new Map([[ANSWER, 100]]),
  ...over,
});
const rows = (over = {}) => ({ calls: 200, executions: 200, events: 612, callEvents: 600, ...over });

describe('the cost benchmark agreement check', () => {
  it('passes subjects that did the same work, whatever their agent.state events', () => {
    const stored = { sqlite: rows(), postgres: rows({ events: 640 }) };
    expect(workDifferences([run('sqlite'), run('postgres')], stored, 100)).toEqual([]);
  });

  it('fails a subject that completed fewer calls or had failures', () => {
    const short = run('postgres', { ok: 97, failed: 3, answers: new Map([[ANSWER, 97]]) });
    const problems = workDifferences([run('sqlite'), short], { sqlite: rows(), postgres: rows() }, 100);
    expect(problems).toEqual([
      'postgres, read_note: 97 of 100 calls answered success',
      'postgres, read_note: 3 calls failed or answered otherwise',
    ]);
  });

  it('fails a subject whose answer differs', () => {
    const other = JSON.stringify({ status: 'success', content: [{ type: 'text', text: '' }], isError: false });
    const problems = workDifferences(
      [run('sqlite'), run('postgres', { answers: new Map([[other, 100]]) })],
      { sqlite: rows(), postgres: rows() },
      100,
    );
    expect(problems).toEqual(['read_note: 2 different answers (sqlite / postgres)']);
  });

  it('fails stores that hold different rows', () => {
    const problems = workDifferences(
      [run('sqlite'), run('postgres')],
      { sqlite: rows(), postgres: rows({ callEvents: 590 }) },
      100,
    );
    expect(problems).toEqual(['stored callEvents differ: sqlite 600, postgres 590']);
  });
});
