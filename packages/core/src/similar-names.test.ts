// "Did you mean": close names are suggested, far ones are not.
import { describe, expect, it } from 'vitest';
import { didYouMean, editDistance, similarNames } from './similar-names.js';

describe('similarNames', () => {
  it('counts insertions, deletions, substitutions and a swap of neighbours as one edit each', () => {
    expect(editDistance('tols', 'tools')).toBe(1);
    expect(editDistance('toolss', 'tools')).toBe(1);
    expect(editDistance('tooks', 'tools')).toBe(1);
    expect(editDistance('mpc', 'mcp')).toBe(1);
    expect(editDistance('', 'abc')).toBe(3);
    expect(editDistance('same', 'same')).toBe(0);
  });

  it('finds the commands a typo meant, closest first, and nothing for a word far from all', () => {
    const commands = ['tools', 'call', 'chat', 'init', 'mcp', 'serve', 'token', 'auth', 'doctor', 'log'];
    expect(similarNames('tool', commands)).toEqual(['tools']);
    expect(similarNames('mpc', commands)).toEqual(['mcp']);
    expect(similarNames('sevre', commands)).toEqual(['serve']);
    expect(similarNames('doctr', commands)).toEqual(['doctor']);
    expect(similarNames('frobnicate', commands)).toEqual([]);
    expect(similarNames('nope', ['code', 'files'])).toEqual([]);
  });

  it('words the hint as a question, or says nothing', () => {
    expect(didYouMean('chta', ['chat', 'call'])).toBe(' Did you mean "chat"?');
    expect(didYouMean('zzz', ['chat', 'call'])).toBe('');
  });
});
