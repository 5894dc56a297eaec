// The executor asks the approver of the front end a call came from, falls back for the rest, and
// takes one approver per origin.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from './define.js';
import { Executor } from './executor/executor.js';
import { MemoryLogSink } from './executor/log.js';
import { Policy } from './policy/policy.js';
import { ToolRegistry } from './registry.js';
import type { ApprovalRequest, Approver } from './approval.js';

const save = defineTool({
  name: 'save',
  description: 'Writes.',
  input: z.object({ n: z.number() }),
  effect: 'write',
  execute: ({ n }) => `saved ${n}`,
});

function recording(outcome: 'approve' | 'reject'): Approver & { seen: ApprovalRequest[] } {
  const seen: ApprovalRequest[] = [];
  return Object.assign(
    async (r: ApprovalRequest) => (
      seen.push(r),
      outcome === 'approve' ? { outcome, scope: 'once' as const } : { outcome }
    ),
    { seen },
  );
}

describe('approval routing', () => {
  it("asks the approver of the call's origin, and the fallback for an origin without one", async () => {
    const terminal = recording('approve');
    const fallback = recording('reject');
    const log = new MemoryLogSink();
    const ex = new Executor({
      registry: new ToolRegistry().register(save),
      policy: new Policy({ mode: 'safe' }),
      approver: fallback,
      approvers: { terminal },
      log,
    });
    const http = recording('approve');
    const leave = ex.approvals.register('http', http);

    expect((await ex.call({ tool: 'save', input: { n: 1 }, origin: 'terminal' })).status).toBe('success');
    expect((await ex.call({ tool: 'save', input: { n: 2 }, origin: 'http' })).status).toBe('success');
    expect((await ex.call({ tool: 'save', input: { n: 3 }, origin: 'mcp' })).status).toBe('rejected');
    expect((await ex.call({ tool: 'save', input: { n: 4 } })).status).toBe('rejected');
    leave();
    expect((await ex.call({ tool: 'save', input: { n: 5 }, origin: 'http' })).status).toBe('rejected');

    expect(terminal.seen.map((r) => [r.input, r.origin])).toEqual([[{ n: 1 }, 'terminal']]);
    expect(http.seen.map((r) => [r.input, r.origin])).toEqual([[{ n: 2 }, 'http']]);
    expect(fallback.seen.map((r) => r.origin)).toEqual(['mcp', 'library', 'http']);
    expect(log.entries.map((e) => e.origin)).toEqual(['terminal', 'http', 'mcp', 'library', 'http']);
  });

  it('refuses a second approver for one origin, and lets another register once the first leaves', () => {
    const ex = new Executor({ registry: new ToolRegistry() });
    const leave = ex.approvals.register('mcp', recording('approve'));
    expect(() => ex.approvals.register('mcp', recording('approve'))).toThrow(
      'calls from "mcp" already have an approver on this executor',
    );
    leave();
    expect(() => ex.approvals.register('mcp', recording('approve'))).not.toThrow();
  });

  it('writes every entry to each log sink a front end adds, until it is removed', async () => {
    const first = new MemoryLogSink();
    const added = new MemoryLogSink();
    const ex = new Executor({
      registry: new ToolRegistry().register(save),
      policy: new Policy({ mode: 'yolo' }),
      log: first,
    });
    const remove = ex.logs.add(added);
    await ex.call({ tool: 'save', input: { n: 1 } });
    remove();
    await ex.call({ tool: 'save', input: { n: 2 } });
    expect(first.entries.map((e) => e.params)).toEqual([{ n: 1 }, { n: 2 }]);
    expect(added.entries.map((e) => e.params)).toEqual([{ n: 1 }]);
  });
});
