// A tool with `prepare` hands the executor one invocation per call: its verdict, its preview and its
// run belong to that one object, whatever the executor does in between (ask, retry, explain).
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ApprovalRequest, Approver } from '../approval.js';
import { defineTool } from '../define.js';
import { Policy } from '../policy/policy.js';
import { ToolRegistry } from '../registry.js';
import { textOf } from '../result.js';
import { ToolError, type Effect, type Invocation, type Tool } from '../tool.js';
import { Executor, type ExecutorOptions } from './executor.js';

/** A tool whose invocations count what is asked of them, each under its own number. */
function counting(opts: { effect?: Effect; failFirstRuns?: number } = {}) {
  const seen = { prepared: 0, previews: [] as number[], runs: [] as number[] };
  const tool = defineTool({
    name: 'deploy',
    description: 'Deploys a target.',
    input: z.object({ target: z.string() }),
    usualEffect: 'execute',
    retry: { attempts: 3, baseDelayMs: 1 },
    prepare({ target }): Invocation {
      const id = ++seen.prepared;
      let attempts = 0;
      return {
        classification: opts.effect ?? {
          effect: 'destructive',
          reason: `replaces ${target}`,
          subject: { paths: [`/srv/${target}`] },
        },
        preview: () => (seen.previews.push(id), { kind: 'text', text: `invocation ${id} would deploy ${target}` }),
        run() {
          seen.runs.push(id);
          if (++attempts <= (opts.failFirstRuns ?? 0))
            throw new ToolError('EXECUTION_FAILED', 'the target was busy', { recoverable: true });
          return `invocation ${id} deployed ${target} on attempt ${attempts}`;
        },
      };
    },
  });
  return { tool, seen };
}

function make(tools: Tool[], opts: Partial<ExecutorOptions> = {}) {
  return new Executor({ registry: new ToolRegistry().registerAll(tools), ...opts });
}

function approving(): Approver & { requests: ApprovalRequest[] } {
  const requests: ApprovalRequest[] = [];
  return Object.assign(
    async (req: ApprovalRequest) => (requests.push(req), { outcome: 'approve' as const, scope: 'once' as const }),
    { requests },
  );
}

describe('a tool with prepare', () => {
  it('is judged, previewed and run by the one invocation prepared for the call', async () => {
    const { tool, seen } = counting();
    const approver = approving();
    const ex = make([tool], { policy: new Policy({ mode: 'auto-edit' }), approver });
    const r = await ex.call({ tool: 'deploy', input: { target: 'web' } });
    expect(textOf(r)).toBe('invocation 1 deployed web on attempt 1');
    expect(r.approvedBy).toBe('user');
    expect(seen).toEqual({ prepared: 1, previews: [1], runs: [1] });
    // The approver saw that invocation's verdict and preview.
    expect(approver.requests[0]).toMatchObject({
      effect: 'destructive',
      preview: { kind: 'text', text: 'invocation 1 would deploy web' },
    });
    expect(approver.requests[0].reason).toContain('replaces web');
  });

  it('prepares each call anew', async () => {
    const { tool, seen } = counting({ effect: 'read' });
    const ex = make([tool]);
    expect(textOf(await ex.call({ tool: 'deploy', input: { target: 'a' } }))).toBe(
      'invocation 1 deployed a on attempt 1',
    );
    expect(textOf(await ex.call({ tool: 'deploy', input: { target: 'b' } }))).toBe(
      'invocation 2 deployed b on attempt 1',
    );
    // A bare effect as the verdict: a read runs in the default mode without asking, so no preview.
    expect(seen).toEqual({ prepared: 2, previews: [], runs: [1, 2] });
  });

  it("retries by running the same invocation's run again, without preparing again", async () => {
    const { tool, seen } = counting({ effect: 'write', failFirstRuns: 2 });
    const r = await make([tool], { policy: new Policy({ mode: 'yolo' }) }).call({
      tool: 'deploy',
      input: { target: 'db' },
    });
    expect(r.status).toBe('success');
    expect(textOf(r)).toBe('invocation 1 deployed db on attempt 3');
    expect(r.metadata?.attempts).toBe(3);
    expect(seen).toEqual({ prepared: 1, previews: [], runs: [1, 1, 1] });
  });

  it('explain() prepares the call and returns its verdict, without previewing or running it', async () => {
    const { tool, seen } = counting();
    const ex = make([tool], { policy: new Policy({ mode: 'auto-edit' }) });
    const explained = await ex.explain({ tool: 'deploy', input: { target: 'web' } });
    expect(explained).toMatchObject({
      effect: 'destructive',
      classification: { reason: 'replaces web', subject: { paths: ['/srv/web'] } },
      decision: { action: 'ask' },
    });
    expect(seen).toEqual({ prepared: 1, previews: [], runs: [] });
  });

  it('refuses the call with the code of a ToolError thrown by prepare, and runs nothing', async () => {
    let ran = false;
    const guarded = defineTool({
      name: 'guarded',
      description: 'd',
      input: z.object({ path: z.string() }),
      usualEffect: 'read',
      prepare: ({ path }) => {
        if (path.startsWith('/etc')) throw new ToolError('PERMISSION_DENIED', `${path} is outside the workspace`);
        return { classification: 'read', run: () => ((ran = true), 'read') };
      },
    });
    const r = await make([guarded]).call({ tool: 'guarded', input: { path: '/etc/passwd' } });
    expect(r.error).toMatchObject({ code: 'PERMISSION_DENIED', message: '/etc/passwd is outside the workspace' });
    expect(ran).toBe(false);
  });

  it('is not prepared when validate refuses the input', async () => {
    let prepared = 0;
    const checked = defineTool({
      name: 'checked',
      description: 'd',
      input: z.object({ n: z.number() }),
      usualEffect: 'read',
      validate: ({ n }) => (n < 0 ? 'n must not be negative' : undefined),
      prepare: () => (prepared++, { classification: 'read', run: () => 'ok' }),
    });
    const ex = make([checked]);
    expect((await ex.call({ tool: 'checked', input: { n: -1 } })).error?.message).toContain('n must not be negative');
    expect(prepared).toBe(0);
    expect((await ex.call({ tool: 'checked', input: { n: 1 } })).status).toBe('success');
    expect(prepared).toBe(1);
  });

  it('answers a prepare that returns no run with EXECUTION_FAILED instead of crashing', async () => {
    const broken = defineTool({
      name: 'broken',
      description: 'd',
      input: z.object({}),
      prepare: () => ({ classification: 'read' }) as unknown as Invocation,
    });
    const r = await make([broken]).call({ tool: 'broken', input: {} });
    expect(r.error).toMatchObject({
      code: 'EXECUTION_FAILED',
      message: expect.stringContaining('no invocation with a run()'),
    });
  });

  it("runAll orders calls by their invocation's verdict: reads together, a write alone", async () => {
    const log: string[] = [];
    const step = defineTool({
      name: 'step',
      description: 'd',
      input: z.object({ id: z.string(), effect: z.enum(['read', 'write']) }),
      usualEffect: 'write',
      prepare: ({ id, effect }) => ({
        classification: effect,
        run: async () => {
          log.push(`start ${id}`);
          await new Promise((r) => setImmediate(r));
          log.push(`end ${id}`);
          return id;
        },
      }),
    });
    const ex = make([step], { policy: new Policy({ mode: 'yolo' }) });
    const results = await ex.runAll([
      { tool: 'step', input: { id: 'r1', effect: 'read' } },
      { tool: 'step', input: { id: 'r2', effect: 'read' } },
      { tool: 'step', input: { id: 'w1', effect: 'write' } },
    ]);
    expect(results.map(textOf)).toEqual(['r1', 'r2', 'w1']);
    expect(log.slice(0, 2).sort()).toEqual(['start r1', 'start r2']);
    expect(log.slice(4)).toEqual(['start w1', 'end w1']);
  });
});

describe('defineTool with prepare', () => {
  const input = z.object({});
  const prepare = () => ({ classification: 'read' as const, run: () => 'ok' });

  it('refuses prepare beside effect, preview or execute, naming them', () => {
    expect(() =>
      defineTool({ name: 'mixed', description: 'd', input, prepare, effect: 'read', execute: () => 'x' }),
    ).toThrow(/has prepare and effect, execute: .*remove effect, execute/);
    expect(() => defineTool({ name: 'mixed', description: 'd', input, prepare, preview: () => undefined })).toThrow(
      /has prepare and preview/,
    );
  });

  it('refuses a tool with neither execute nor prepare, and one with execute but no effect', () => {
    expect(() => defineTool({ name: 'idle', description: 'd', input, effect: 'read' })).toThrow(
      'tool "idle" needs execute(input, ctx), or prepare(input, ctx) returning its invocation',
    );
    expect(() => defineTool({ name: 'vague', description: 'd', input, execute: () => 'x' })).toThrow(
      'tool "vague" needs an effect',
    );
  });
});
