// Two rules the "untrusted workspace" review asked for: an ask-first tool is allowed only by a rule
// that names it, and what a person approved for one agent never covers another.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ApprovalRequest } from '../approval.js';
import { defineTool } from '../define.js';
import { Executor } from '../executor/executor.js';
import { ToolRegistry } from '../registry.js';
import { Policy } from './policy.js';
import type { DecisionStore, PolicyCall, Remembered, Rule } from './types.js';

const call = (over: Partial<PolicyCall>): PolicyCall => ({
  tool: 'mail_send',
  effect: 'execute',
  input: {},
  sessionId: 's',
  floor: { level: 'ask-first', reason: 'sends mail' },
  ...over,
});

describe('ask-first tools and broad rules', () => {
  it('"*" and "mail_*" allow rules leave an ask-first tool asking, in every mode', () => {
    for (const tool of ['*', 'mail_*', 'mail_s?nd', ['mail_*']]) {
      for (const mode of ['safe', 'yolo'] as const) {
        const d = new Policy({ mode, rules: [{ tool, action: 'allow' }] }).decide(call({}));
        expect(d).toMatchObject({ action: 'ask', source: 'ask-first' });
        expect(d.reason).toContain('only a rule naming it ({"tool": "mail_send", "action": "allow"}) allows it');
      }
    }
    // A tool without an ask-first floor is still allowed by the broad rule.
    expect(
      new Policy({ rules: [{ tool: '*', action: 'allow' }] }).decide(call({ tool: 'mail_read', floor: undefined }))
        .action,
    ).toBe('allow');
  });

  it('a rule naming the tool (alone or in a list) allows it, even before a broad rule that matches later', () => {
    const rules: Rule[][] = [
      [{ tool: 'mail_send', action: 'allow' }],
      [{ tool: ['mail_read', 'mail_send'], action: 'allow' }],
      [
        { tool: 'mail_send', action: 'allow' },
        { tool: '*', action: 'allow' },
      ],
    ];
    for (const r of rules)
      expect(new Policy({ rules: r }).decide(call({}))).toMatchObject({ action: 'allow', source: 'rule' });
    // A naming rule that does not match the call (another recipient) does not allow it.
    const narrow: Rule[] = [
      { tool: 'mail_send', url: 'mailto:*@example.com', action: 'allow' },
      { tool: '*', action: 'allow' },
    ];
    const outside = new Policy({ rules: narrow }).decide(call({ subject: { urls: ['mailto:eve@elsewhere.org'] } }));
    expect(outside).toMatchObject({ action: 'ask', source: 'ask-first' });
    // Broad deny and ask rules still apply.
    expect(new Policy({ rules: [{ tool: 'mail_*', action: 'deny' }] }).decide(call({})).action).toBe('deny');
  });

  it('an ask-first tool under a broad allow is asked by a real executor', async () => {
    const registry = new ToolRegistry().register(
      defineTool({
        name: 'calendar_create_event',
        description: 'Adds an event',
        input: z.object({ title: z.string() }),
        usualEffect: 'execute',
        prepare: () => ({
          classification: { effect: 'execute', floor: { level: 'ask-first', reason: "adds to the user's calendar" } },
          run: async () => 'created',
        }),
      }),
    );
    const asked: ApprovalRequest[] = [];
    const run = (rules: Rule[]) =>
      new Executor({
        registry,
        policy: new Policy({ mode: 'yolo', rules }),
        approver: async (r) => (asked.push(r), { outcome: 'reject', message: 'no' }),
      }).call({ tool: 'calendar_create_event', input: { title: 'x' } });
    expect((await run([{ tool: '*', action: 'allow' }])).status).toBe('rejected');
    expect(asked).toHaveLength(1);
    expect((await run([{ tool: 'calendar_create_event', action: 'allow' }])).status).toBe('success');
    expect(asked).toHaveLength(1);
  });
});

describe('remembered approvals are per agent', () => {
  const target = { kind: 'tool', tool: 'write_file' } as const;
  const write = (agentId: string | undefined, sessionId = 's1'): PolicyCall => ({
    tool: 'write_file',
    effect: 'write',
    input: {},
    sessionId,
    agentId,
  });

  it("a session approval covers its agent's calls in that session only", async () => {
    const p = new Policy({ mode: 'safe' });
    await p.remember(target, 'session', 's1', 'write', 'a');
    expect(p.decide(write('a')).source).toBe('remembered');
    expect(p.decide(write('b')).action).toBe('ask');
    expect(p.decide(write(undefined)).action).toBe('ask');
    expect(p.decide(write('a', 's2')).action).toBe('ask');
  });

  it("an always approval saved for an agent covers that agent's calls only, after a reload too", async () => {
    const saved: Remembered[] = [];
    const store: DecisionStore = { load: () => [...saved], save: (e) => void saved.push(e) };
    const first = new Policy({ mode: 'safe', store });
    await first.remember(target, 'always', 's1', 'write', 'a');
    expect(saved[0]).toMatchObject({ agentId: 'a', scope: 'always' });
    const again = new Policy({ mode: 'safe', store });
    await again.ready();
    expect(again.decide(write('a', 'other')).source).toBe('remembered');
    expect(again.decide(write('b')).action).toBe('ask');
    // An entry without an agent (the terminal's) still covers everyone, as before.
    await again.remember(target, 'always', 's1', 'write');
    expect(again.decide(write('b')).source).toBe('remembered');
  });
});
