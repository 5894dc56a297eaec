import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ConfigError, configSection, parseConfigWith } from './problems.js';
import { coreConfigSchema, ruleSchema } from './section.js';

function problems(run: () => unknown): string[] {
  try {
    run();
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as ConfigError).problems;
  }
  throw new Error('no ConfigError');
}

describe("core's config section", () => {
  it('accepts mode, rules, hardDeny, toolSettings and limits', () => {
    const c = parseConfigWith(
      coreConfigSchema,
      't.json',
      JSON.stringify({
        mode: 'auto-edit',
        rules: [{ tool: 'shell_exec', command: 'npm test', action: 'allow' }],
        toolSettings: { read_file: { timeoutMs: 5000 } },
        limits: { maxOutputChars: 1000 },
      }),
    );
    expect(c.mode).toBe('auto-edit');
    expect(c.rules?.[0].command).toBe('npm test');
    expect(c.toolSettings?.read_file.timeoutMs).toBe(5000);
  });

  it('reports every wrong value with its path and what it must be, all at once', () => {
    const found = problems(() =>
      parseConfigWith(coreConfigSchema, 't.json', {
        mode: 'fast',
        rules: [{ tool: 'x', action: 'maybe' }],
        toolSettings: { a: { timeoutMs: 'slow' } },
      }),
    );
    expect(found).toEqual([
      'mode: must be one of "ask", "safe", "auto-edit", "yolo", not "fast"',
      'rules[0].action: must be one of "allow", "ask", "deny", not "maybe"',
      'toolSettings.a.timeoutMs: must be a positive integer, not "slow"',
    ]);
  });

  it('names an unknown key by its full path, with the key likely meant or the keys known there', () => {
    const schema = z.strictObject({
      limits: z.strictObject({ cpuSeconds: z.number().optional(), memoryMb: z.number().optional() }).optional(),
      rules: z.array(ruleSchema).optional(),
    });
    expect(
      problems(() =>
        parseConfigWith(schema, 't.json', {
          limits: { cpuSecs: 1 },
          rules: [{ action: 'allow', comand: 'ls' }],
          zzz: 1,
        }),
      ),
    ).toEqual([
      'limits.cpuSecs: unknown key; did you mean "cpuSeconds"?',
      'rules[0].comand: unknown key; did you mean "command"?',
      'zzz: unknown key; known here: limits, rules',
    ]);
  });

  it('says when the text is not JSON, naming the source', () => {
    expect(() => parseConfigWith(coreConfigSchema, 't.json', '{ mode: ')).toThrow(
      /^t\.json is invalid:\n {2}- not valid JSON/,
    );
  });

  it("checks one section of a whole config and leaves the other packages' keys alone", () => {
    const section = z.strictObject({ engine: z.enum(['rg', 'js']).optional() });
    expect(configSection({ search: { engine: 'js' }, mode: 'yolo', anything: 1 }, 'search', section)).toEqual({
      engine: 'js',
    });
    expect(configSection(undefined, 'search', section)).toBeUndefined();
    expect(problems(() => configSection({ search: { engin: 'js' } }, 'search', section))).toEqual([
      'search.engin: unknown key; did you mean "engine"?',
    ]);
  });
});

describe('config problems in words', () => {
  it('say what a key must be and what it got, never a bare "Invalid input"', () => {
    const found = problems(() =>
      parseConfigWith(coreConfigSchema, 't.json', {
        rules: [{ tool: 42, action: 'allow' }, 'x'],
        hardDeny: [{ path: ['a'], action: 'deny' }],
        log: { results: 'no' },
      }),
    );
    expect(found).toEqual([
      'rules[0].tool: must be a tool name glob or a list of them, not 42',
      'rules[1]: must be an object, not "x"',
      'hardDeny[0].path: must be a string, not ["a"]',
      'log.results: must be true or false, not "no"',
    ]);
    expect(found.join('\n')).not.toContain('Invalid input');
  });
});
