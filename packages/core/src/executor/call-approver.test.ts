import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ApprovalRequest, Approver } from '../approval.js';
import { defineTool } from '../define.js';
import { Policy } from '../policy/policy.js';
import { ToolRegistry } from '../registry.js';
import { Executor } from './executor.js';
import { MemoryLogSink } from './log.js';

const write = defineTool({
  name: 'write',
  description: 'Pretends to write a file.',
  effect: 'write',
  input: z.object({ path: z.string() }),
  execute: ({ path }) => `wrote ${path}`,
});

function recording(outcome: 'approve' | 'reject'): Approver & { asked: ApprovalRequest[] } {
  const asked: ApprovalRequest[] = [];
  const approver: Approver = async (request) => {
    asked.push(request);
    return outcome === 'approve' ? { outcome, scope: 'once', by: 'framework' } : { outcome, message: 'no' };
  };
  return Object.assign(approver, { asked });
}

describe('CallRequest.approver', () => {
  it("is asked in place of the origin's approver, and the call is logged as approved by the user", async () => {
    const origin = recording('reject');
    const perCall = recording('approve');
    const log = new MemoryLogSink();
    const executor = new Executor({
      registry: new ToolRegistry().register(write),
      policy: new Policy({ mode: 'safe' }),
      approver: origin,
      log,
    });
    const result = await executor.call({ tool: 'write', input: { path: 'a' }, approver: perCall });
    expect(result).toMatchObject({ status: 'success', approvedBy: 'user' });
    expect(perCall.asked.map((r) => r.tool)).toEqual(['write']);
    expect(origin.asked).toEqual([]);
    expect(log.entries[0]).toMatchObject({ status: 'success', approvedBy: 'user' });
  });

  it('never overrides a deny: the policy decides before any approver is asked', async () => {
    const perCall = recording('approve');
    const policy = new Policy({ mode: 'yolo', rules: [{ tool: 'write', action: 'deny' }] });
    const executor = new Executor({ registry: new ToolRegistry().register(write), policy });
    const result = await executor.call({ tool: 'write', input: { path: 'a' }, approver: perCall });
    expect(result.error?.code).toBe('PERMISSION_DENIED');
    expect(perCall.asked).toEqual([]);
  });

  it("hands the person the call's context: one line, clipped to 500 characters; none when blank", async () => {
    const approver = recording('approve');
    const executor = new Executor({
      registry: new ToolRegistry().register(write),
      policy: new Policy({ mode: 'safe' }),
      approver,
    });
    await executor.call({ tool: 'write', input: { path: 'a' }, context: '  Fixing the\n  authentication bug  ' });
    await executor.call({ tool: 'write', input: { path: 'b' }, context: 'x'.repeat(600) });
    await executor.call({ tool: 'write', input: { path: 'c' }, context: '   ' });
    expect(approver.asked[0].context).toBe('Fixing the authentication bug');
    expect(approver.asked[1].context).toHaveLength(500);
    expect(approver.asked[1].context?.endsWith('…')).toBe(true);
    expect('context' in approver.asked[2]).toBe(false);
  });
});
