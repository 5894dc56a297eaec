import { describe, expect, it } from 'vitest';
import { TOOL_NAME } from '@toolbelt/core';
import { globMatch, proxyNames, sanitize } from './names.js';

describe('proxyNames', () => {
  it('joins server and tool with a double underscore', () => {
    expect(proxyNames('github', ['create_issue', 'list-prs'])).toEqual(['github__create_issue', 'github__list-prs']);
  });

  it('replaces characters a provider would refuse', () => {
    expect(sanitize('my server.v2')).toBe('my_server_v2');
    expect(proxyNames('my server', ['get/item'])).toEqual(['my_server__get_item']);
  });

  it('gives a clean name to the tool that has it and a hashed one to the tool that would collide', () => {
    const names = proxyNames('s', ['a.b', 'a_b']);
    expect(names[1]).toBe('s__a_b');
    expect(names[0]).toMatch(/^s__a_b_[0-9a-f]{8}$/);
  });

  it('shortens long names to 64 characters, distinct and stable', () => {
    const long = ['x'.repeat(80) + '1', 'x'.repeat(80) + '2'];
    const first = proxyNames('server', long);
    expect(first.every((n) => n.length === 64 && TOOL_NAME.test(n))).toBe(true);
    expect(first[0]).not.toBe(first[1]);
    expect(proxyNames('server', [...long].reverse())).toEqual([...first].reverse());
  });

  it('never takes a name already used elsewhere', () => {
    const taken = new Set(['s__read']);
    const [name] = proxyNames('s', ['read'], (n) => taken.has(n));
    expect(name).not.toBe('s__read');
    expect(name).toMatch(TOOL_NAME);
  });
});

describe('globMatch', () => {
  it('matches exact names and * wildcards, and nothing else', () => {
    expect(globMatch('read_file', 'read_file')).toBe(true);
    expect(globMatch('read_*', 'read_file')).toBe(true);
    expect(globMatch('read_*', 'write_file')).toBe(false);
    expect(globMatch('a.b', 'axb')).toBe(false);
  });
});
