// Core's appliers: what its config sections mean at run time (apply.ts). Both front ends' use of them
// is tested in packages/cli/src/config-appliers.test.ts.
import { describe, expect, it } from 'vitest';
import { defineTool } from '../define.js';
import { executorOptionsFrom, policyOptionsFrom, toolSettingsFrom } from './apply.js';

const probe = defineTool({
  name: 'probe',
  description: 'Answers ok.',
  input: { type: 'object' },
  effect: 'read',
  timeoutMs: 1000,
  execute: () => 'ok',
});

describe('executorOptionsFrom', () => {
  it('leaves every default alone when the config says nothing', () => {
    expect(executorOptionsFrom({})).toEqual({});
  });

  it('maps limits, structuredText, aliases and log', () => {
    expect(
      executorOptionsFrom({
        limits: { maxOutputChars: 10, defaultTimeoutMs: 20, approvalTimeoutMs: 30 },
        structuredText: 'toon',
        aliases: false,
        log: { redact: ['content'], results: false },
      }),
    ).toEqual({
      maxOutputChars: 10,
      defaultTimeoutMs: 20,
      approvalTimeoutMs: 30,
      structuredText: 'toon',
      aliases: false,
      logRedaction: { params: ['content'], results: false },
    });
  });
});

describe('policyOptionsFrom', () => {
  it("puts other sections' rules before the config's own, and a --mode over the config's", () => {
    const mine = { tool: 'a', action: 'ask' as const };
    const shell = { tool: 'shell_exec', command: 'ls', action: 'allow' as const };
    expect(policyOptionsFrom({ mode: 'ask', rules: [mine] }, { mode: 'yolo', rules: [shell] })).toEqual({
      mode: 'yolo',
      rules: [shell, mine],
      hardDeny: [],
    });
    expect(policyOptionsFrom({}).mode).toBe('safe');
  });
});

describe('toolSettingsFrom', () => {
  it('overrides what the settings name, leaves out a disabled tool and passes others as they are', () => {
    const apply = toolSettingsFrom({ probe: { timeoutMs: 5, retry: { attempts: 2 }, cacheTtlMs: 0 } });
    expect(apply(probe)).toMatchObject({ timeoutMs: 5, retry: { attempts: 2 }, cacheTtlMs: 0 });
    expect(toolSettingsFrom({ probe: { enabled: false } })(probe)).toBeUndefined();
    expect(toolSettingsFrom({ other: { enabled: false } })(probe)).toBe(probe);
  });
});
