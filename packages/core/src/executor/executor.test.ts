import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../define.js';
import { EventBus, type ToolEvent } from '../events.js';
import { Policy } from '../policy/policy.js';
import { ToolRegistry } from '../registry.js';
import { ToolError, type Tool } from '../tool.js';
import type { ApprovalRequest, Approver } from '../approval.js';
import { textOf } from '../result.js';
import { Executor, type ExecutorOptions } from './executor.js';
import { MemoryLogSink } from './log.js';
import type { DeferredOutput } from './truncate.js';

const echo = defineTool({
  name: 'echo',
  description: 'Returns its text.',
  effect: 'read',
  input: z.object({ text: z.string(), times: z.number().int().min(1).default(1) }),
  execute: ({ text, times }) => text.repeat(times),
});

const writeTool = defineTool({
  name: 'write',
  description: 'Pretends to write a file.',
  effect: (input: { path: string }) => ({ effect: 'write' as const, subject: { paths: [input.path] } }),
  input: z.object({ path: z.string() }),
  preview: ({ path }) => ({ kind: 'text', text: `would write ${path}` }),
  execute: ({ path }) => `wrote ${path}`,
});

function make(tools: Tool[], opts: Partial<ExecutorOptions> = {}) {
  const registry = new ToolRegistry().registerAll(tools);
  return new Executor({ registry, ...opts });
}

function recordingApprover(answer: Awaited<ReturnType<Approver>>): Approver & { requests: ApprovalRequest[] } {
  const requests: ApprovalRequest[] = [];
  const approver: Approver = async (req) => {
    requests.push(req);
    return answer;
  };
  return Object.assign(approver, { requests });
}

describe('Executor.call', () => {
  it('runs a valid call and applies schema defaults', async () => {
    const r = await make([echo]).call({ tool: 'echo', input: { text: 'ab' } });
    expect(r.status).toBe('success');
    expect(textOf(r)).toBe('ab');
    expect(r.approvedBy).toBe('auto');
    expect(r.callId).toMatch(/^tc_/);
    expect(r.durationMs).toBeGreaterThanOrEqual(0);
  });

  it('accepts arguments sent as a JSON string', async () => {
    const r = await make([echo]).call({ tool: 'echo', input: '{"text":"x","times":3}' });
    expect(textOf(r)).toBe('xxx');
  });

  it('answers an unknown tool with UNKNOWN_TOOL and the likely name', async () => {
    const r = await make([echo]).call({ tool: 'ecko', input: {} });
    expect(r.status).toBe('error');
    expect(r.error?.code).toBe('UNKNOWN_TOOL');
    expect(r.error?.message).toContain('Did you mean "echo"');
  });

  it('reports every invalid parameter at once, with its path and the value received', async () => {
    const r = await make([echo]).call({ tool: 'echo', input: { text: 5, times: 'ten' } });
    expect(r.error?.code).toBe('INVALID_PARAMS');
    expect(r.error?.recoverable).toBe(true);
    expect(r.error?.message).toContain('`text` must be a string; got 5');
    expect(r.error?.message).toContain('`times`');
    expect(r.error?.message).toContain('"ten"');
  });

  it('refuses with the message of a custom validate hook', async () => {
    const t = defineTool({
      name: 'v',
      description: 'd',
      effect: 'read',
      input: z.object({ n: z.number() }),
      validate: ({ n }) => (n % 2 ? 'n must be even' : undefined),
      execute: () => 'ok',
    });
    const ex = make([t]);
    expect((await ex.call({ tool: 'v', input: { n: 3 } })).error?.message).toContain('n must be even');
    expect((await ex.call({ tool: 'v', input: { n: 4 } })).status).toBe('success');
  });

  it('maps a thrown ToolError to its code and any other throw to EXECUTION_FAILED', async () => {
    const t1 = defineTool({
      name: 'nf',
      description: 'd',
      effect: 'read',
      input: z.object({}),
      execute: () => {
        throw new ToolError('NOT_FOUND', 'no such thing; list first');
      },
    });
    const t2 = defineTool({
      name: 'boom',
      description: 'd',
      effect: 'read',
      input: z.object({}),
      execute: async () => {
        throw new Error('kaput');
      },
    });
    const ex = make([t1, t2]);
    const a = await ex.call({ tool: 'nf' });
    expect(a.error).toEqual({ code: 'NOT_FOUND', message: 'no such thing; list first', recoverable: false });
    const b = await ex.call({ tool: 'boom' });
    expect(b.error?.code).toBe('EXECUTION_FAILED');
    expect(b.error?.message).toContain('kaput');
  });

  it('denies by rule with PERMISSION_DENIED and never runs the tool', async () => {
    let ran = false;
    const t = defineTool({
      name: 'rm',
      description: 'd',
      effect: 'destructive',
      input: z.object({}),
      execute: () => {
        ran = true;
        return 'gone';
      },
    });
    const ex = make([t], {
      policy: new Policy({ mode: 'yolo', rules: [{ tool: 'rm', action: 'deny', reason: 'never' }] }),
    });
    const r = await ex.call({ tool: 'rm' });
    expect(r.error?.code).toBe('PERMISSION_DENIED');
    expect(r.error?.message).toContain('never');
    expect(ran).toBe(false);
  });

  it('asks the approver with the preview, and returns rejected with the user message', async () => {
    const approver = recordingApprover({ outcome: 'reject', message: 'wrong file' });
    const ex = make([writeTool], { approver, policy: new Policy({ mode: 'safe' }) });
    const r = await ex.call({ tool: 'write', input: { path: '/w/a.txt' } });
    expect(r.status).toBe('rejected');
    expect(r.rejection).toEqual({ reason: 'The user rejected this write call', userMessage: 'wrong file' });
    expect(textOf(r)).toContain('wrong file');
    expect(approver.requests[0].preview).toEqual({ kind: 'text', text: 'would write /w/a.txt' });
    expect(approver.requests[0].effect).toBe('write');
  });

  it('rejects a call that needs approval when no approver is configured', async () => {
    const r = await make([writeTool]).call({ tool: 'write', input: { path: '/w/a' } });
    expect(r.status).toBe('rejected');
    expect(textOf(r)).toContain('approval was required');
    expect(textOf(r)).not.toContain('The user rejected');
  });

  it('remembers "always" so the next call of the tool is not asked', async () => {
    const approver = recordingApprover({ outcome: 'approve', scope: 'always' });
    const ex = make([writeTool], { approver });
    const first = await ex.call({ tool: 'write', input: { path: '/w/a' } });
    const second = await ex.call({ tool: 'write', input: { path: '/w/b' } });
    expect(first.approvedBy).toBe('user');
    expect(second.approvedBy).toBe('remembered');
    expect(approver.requests).toHaveLength(1);
  });

  it('keeps a "session" approval to its own session', async () => {
    const approver = recordingApprover({ outcome: 'approve', scope: 'session' });
    const ex = make([writeTool], { approver });
    await ex.call({ tool: 'write', input: { path: '/a' }, sessionId: 's1' });
    await ex.call({ tool: 'write', input: { path: '/a' }, sessionId: 's1' });
    await ex.call({ tool: 'write', input: { path: '/a' }, sessionId: 's2' });
    expect(approver.requests.map((r) => r.sessionId)).toEqual(['s1', 's2']);
  });

  it('remembers the path an approver chose, for that tool only', async () => {
    const approver = recordingApprover({
      outcome: 'approve',
      scope: 'session',
      remember: { kind: 'path', tool: 'write', path: '/w/src' },
    });
    const ex = make([writeTool], { approver });
    await ex.call({ tool: 'write', input: { path: '/w/src/a' } });
    expect((await ex.call({ tool: 'write', input: { path: '/w/src/deep/b' } })).approvedBy).toBe('remembered');
    await ex.call({ tool: 'write', input: { path: '/w/other' } });
    expect(approver.requests).toHaveLength(2);
  });

  it('rejects when the approver does not answer in time', async () => {
    const never: Approver = () => new Promise(() => {});
    const ex = make([writeTool], { approver: never, approvalTimeoutMs: 30 });
    const r = await ex.call({ tool: 'write', input: { path: '/a' } });
    expect(r.status).toBe('rejected');
    expect(textOf(r)).toContain('no one approved it within 30 ms');
  });
});

describe('timeouts, aborts and retries', () => {
  it('ends a call that ignores its signal with TIMEOUT and discards its late result', async () => {
    let finished = false;
    const slow = defineTool({
      name: 'slow',
      description: 'd',
      effect: 'read',
      input: z.object({}),
      execute: () =>
        new Promise((r) =>
          setTimeout(() => {
            finished = true;
            r('late');
          }, 200),
        ),
    });
    const events = new EventBus();
    const results: ToolEvent[] = [];
    events.onType('tool.result', (e) => results.push(e));
    const ex = make([slow], { events });
    const r = await ex.call({ tool: 'slow', timeoutMs: 20 });
    expect(r.status).toBe('error');
    expect(r.error?.code).toBe('TIMEOUT');
    expect(r.error?.message).toContain('20 ms');
    expect(finished).toBe(false);
    await new Promise((res) => setTimeout(res, 250));
    expect(finished).toBe(true);
    expect(results).toHaveLength(1);
  });

  it('aborts the tool signal on timeout so a cooperative tool can stop', async () => {
    let sawAbort = false;
    const coop = defineTool({
      name: 'coop',
      description: 'd',
      effect: 'read',
      input: z.object({}),
      execute: (_i, ctx) =>
        new Promise((_r, reject) =>
          ctx.signal.addEventListener('abort', () => {
            sawAbort = true;
            reject(new Error('stopped'));
          }),
        ),
    });
    const r = await make([coop]).call({ tool: 'coop', timeoutMs: 20 });
    expect(r.error?.code).toBe('TIMEOUT');
    expect(sawAbort).toBe(true);
  });

  it("resolves with ABORTED when the caller's signal aborts", async () => {
    const hang = defineTool({
      name: 'hang',
      description: 'd',
      effect: 'read',
      input: z.object({}),
      execute: () => new Promise(() => {}),
    });
    const controller = new AbortController();
    const pending = make([hang]).call({ tool: 'hang', signal: controller.signal });
    setTimeout(() => controller.abort(), 10);
    const r = await pending;
    expect(r.error?.code).toBe('ABORTED');
  });

  it('a call whose caller goes away while approval is pending is logged as cancelled before it ran, not as failed', async () => {
    let ran = false;
    const write = defineTool({
      name: 'write_it',
      description: 'd',
      effect: 'write',
      input: z.object({}),
      execute: () => {
        ran = true;
        return 'written';
      },
    });
    const log = new MemoryLogSink();
    const controller = new AbortController();
    // The person is being asked when the caller hangs up.
    const approver: Approver = () => (controller.abort(), new Promise(() => {}));
    const r = await make([write], { approver, log }).call({ tool: 'write_it', signal: controller.signal });
    expect(r.error).toMatchObject({
      code: 'ABORTED',
      message: 'write_it was cancelled before it ran: the call was cancelled while it waited for approval.',
    });
    expect(log.entries[0]).toMatchObject({ status: 'error', error: { code: 'ABORTED' } });
    expect(ran).toBe(false);
  });

  it('close() ends calls in flight and refuses new ones', async () => {
    const hang = defineTool({
      name: 'hang',
      description: 'd',
      effect: 'read',
      input: z.object({}),
      execute: () => new Promise(() => {}),
    });
    let disposed = false;
    const holder = defineTool({
      name: 'holder',
      description: 'd',
      effect: 'read',
      input: z.object({}),
      execute: () => 'x',
      dispose: () => {
        disposed = true;
      },
    });
    const ex = make([hang, holder]);
    const pending = ex.call({ tool: 'hang' });
    await new Promise((res) => setTimeout(res, 5));
    await ex.close();
    expect((await pending).error?.code).toBe('ABORTED');
    expect(disposed).toBe(true);
    expect((await ex.call({ tool: 'holder' })).error?.code).toBe('ABORTED');
  });

  it('retries recoverable failures with backoff and reports the attempts', async () => {
    let calls = 0;
    const flaky = defineTool({
      name: 'flaky',
      description: 'd',
      effect: 'read',
      input: z.object({}),
      retry: { attempts: 3, baseDelayMs: 1 },
      execute: () => {
        calls++;
        if (calls < 3) throw new ToolError('EXECUTION_FAILED', 'try again', { recoverable: true });
        return 'ok';
      },
    });
    const r = await make([flaky]).call({ tool: 'flaky' });
    expect(r.status).toBe('success');
    expect(calls).toBe(3);
    expect(r.metadata?.attempts).toBe(3);
  });

  it('never retries more than 3 times, and not at all for non-recoverable errors', async () => {
    let a = 0;
    let b = 0;
    const always = defineTool({
      name: 'always',
      description: 'd',
      effect: 'read',
      input: z.object({}),
      retry: { attempts: 10, baseDelayMs: 1 },
      execute: () => {
        a++;
        throw new ToolError('EXECUTION_FAILED', 'x', { recoverable: true });
      },
    });
    const fatal = defineTool({
      name: 'fatal',
      description: 'd',
      effect: 'read',
      input: z.object({}),
      retry: { attempts: 3, baseDelayMs: 1 },
      execute: () => {
        b++;
        throw new ToolError('NOT_FOUND', 'x');
      },
    });
    const ex = make([always, fatal]);
    expect((await ex.call({ tool: 'always' })).status).toBe('error');
    expect(a).toBe(4);
    await ex.call({ tool: 'fatal' });
    expect(b).toBe(1);
  });

  it('retries a timed-out attempt with a fresh, unaborted signal', async () => {
    const signals: boolean[] = [];
    let n = 0;
    const t = defineTool({
      name: 't',
      description: 'd',
      effect: 'read',
      input: z.object({}),
      retry: { attempts: 1, baseDelayMs: 1 },
      timeoutMs: 20,
      execute: (_i, ctx) => {
        signals.push(ctx.signal.aborted);
        return n++ === 0 ? new Promise(() => {}) : 'second';
      },
    });
    const r = await make([t]).call({ tool: 't' });
    expect(textOf(r)).toBe('second');
    expect(signals).toEqual([false, false]);
  });
});

describe('results, cache, runAll, events, metrics, log', () => {
  it('cuts oversized output to head and tail and states the full size', async () => {
    const big = defineTool({
      name: 'big',
      description: 'd',
      effect: 'read',
      input: z.object({}),
      execute: () => 'H'.repeat(500) + 'T'.repeat(500),
    });
    const r = await make([big], { maxOutputChars: 100 }).call({ tool: 'big' });
    const text = textOf(r);
    expect(text.startsWith('H')).toBe(true);
    expect(text.endsWith('T')).toBe(true);
    expect(text).toContain('1000 characters in total');
    expect(r.metadata?.truncated).toBe(true);
  });

  it('returns pending when the tool says its result comes later', async () => {
    const later = defineTool({
      name: 'later',
      description: 'd',
      effect: 'read',
      input: z.object({}),
      execute: (): DeferredOutput => ({ pending: true, content: 'queued' }),
    });
    expect((await make([later]).call({ tool: 'later' })).status).toBe('pending');
  });

  it('serves a read from cache until a write touches the same path', async () => {
    let reads = 0;
    const read = defineTool({
      name: 'read',
      description: 'd',
      input: z.object({ path: z.string() }),
      cacheTtlMs: 60_000,
      effect: (i: { path: string }) => ({ effect: 'read' as const, subject: { paths: [i.path] } }),
      execute: ({ path }) => `${path}#${++reads}`,
    });
    const ex = make([read, writeTool], { policy: new Policy({ mode: 'yolo' }) });
    const a = await ex.call({ tool: 'read', input: { path: '/w/f' } });
    const b = await ex.call({ tool: 'read', input: { path: '/w/f' } });
    expect(textOf(b)).toBe(textOf(a));
    expect(b.metadata?.cached).toBe(true);
    await ex.call({ tool: 'write', input: { path: '/w/f' } });
    const c = await ex.call({ tool: 'read', input: { path: '/w/f' } });
    expect(textOf(c)).toBe('/w/f#2');
  });

  it('runAll runs reads in parallel and writes alone, in order', async () => {
    const log: string[] = [];
    let running = 0;
    let maxParallel = 0;
    const step = (name: string, effect: 'read' | 'write') =>
      defineTool({
        name,
        description: 'd',
        effect,
        input: z.object({ id: z.string() }),
        execute: async ({ id }) => {
          running++;
          maxParallel = Math.max(maxParallel, running);
          log.push(`start ${id}`);
          await new Promise((r) => setTimeout(r, 10));
          log.push(`end ${id}`);
          running--;
          return id;
        },
      });
    const ex = make([step('r', 'read'), step('w', 'write')], { policy: new Policy({ mode: 'yolo' }) });
    const results = await ex.runAll([
      { tool: 'r', input: { id: 'r1' } },
      { tool: 'r', input: { id: 'r2' } },
      { tool: 'w', input: { id: 'w1' } },
      { tool: 'r', input: { id: 'r3' } },
    ]);
    expect(results.map(textOf)).toEqual(['r1', 'r2', 'w1', 'r3']);
    expect(maxParallel).toBe(2);
    expect(log.indexOf('start w1')).toBeGreaterThan(log.indexOf('end r2'));
    expect(log.indexOf('start r3')).toBeGreaterThan(log.indexOf('end w1'));
  });

  it('emits the event vocabulary in order, with progress and output from the tool', async () => {
    const t = defineTool({
      name: 'steps',
      description: 'd',
      effect: 'read',
      input: z.object({}),
      execute: (_i, ctx) => {
        ctx.emit({ type: 'progress', progress: 1, total: 2, message: 'half' });
        ctx.emit({ type: 'output', stream: 'stdout', chunk: 'hi' });
        return 'done';
      },
    });
    const events = new EventBus();
    const seen: ToolEvent[] = [];
    events.on((e) => seen.push(e));
    await make([t], { events }).call({ tool: 'steps', runId: 'run1', agentId: 'ag1' });
    expect(seen.map((e) => e.type)).toEqual([
      'agent.state',
      'tool.call',
      'tool.started',
      'tool.progress',
      'tool.output',
      'tool.result',
      'agent.state',
    ]);
    expect(seen.every((e) => e.runId === 'run1' && e.agentId === 'ag1' && typeof e.ts === 'number')).toBe(true);
  });

  it('counts calls per tool with latency percentiles', async () => {
    const ex = make([echo, writeTool]);
    await ex.call({ tool: 'echo', input: { text: 'a' } });
    await ex.call({ tool: 'echo', input: { text: 1 } });
    await ex.call({ tool: 'write', input: { path: '/x' } });
    const snap = Object.fromEntries(ex.metrics.snapshot().map((s) => [s.tool, s]));
    expect(snap.echo).toMatchObject({ calls: 2, success: 1, errors: 1, rejected: 0 });
    expect(snap.write).toMatchObject({ calls: 1, rejected: 1 });
    expect(snap.echo.p99Ms).toBeGreaterThanOrEqual(snap.echo.p50Ms);
  });

  it("latency counts the tool's own time, not the wait for a person's approval", async () => {
    // The person takes 100 ms (a timer) to approve; the tool itself returns at once.
    const approver: Approver = () => new Promise((resolve) => setTimeout(() => resolve({ outcome: 'approve' }), 100));
    const ex = make([writeTool], { approver, policy: new Policy({ mode: 'safe' }) });
    const result = await ex.call({ tool: 'write', input: { path: '/w/a.txt' } });
    expect(result.status).toBe('success');
    const [m] = ex.metrics.snapshot();
    // durationMs is the whole call, the wait included; the latency metric is the same call without the wait.
    expect(result.durationMs - m.p50Ms).toBeGreaterThanOrEqual(90);
    expect(m.p50Ms).toBeGreaterThanOrEqual(0);
  });

  it('writes one log entry per call with params, status and who approved it', async () => {
    const log = new MemoryLogSink();
    const ex = make([echo, writeTool], { log, approver: async () => ({ outcome: 'approve' }) });
    await ex.call({ tool: 'echo', input: { text: 'a' }, runId: 'r' });
    await ex.call({ tool: 'write', input: { path: '/x' } });
    expect(log.entries.map((e) => [e.tool, e.status, e.approvedBy])).toEqual([
      ['echo', 'success', 'auto'],
      ['write', 'success', 'user'],
    ]);
    expect(log.entries[0].params).toEqual({ text: 'a', times: 1 });
    expect(log.entries[0].runId).toBe('r');
    expect(Date.parse(log.entries[0].timestamp)).not.toBeNaN();
  });

  it('keeps large results in the log cut to head and tail', async () => {
    const log = new MemoryLogSink();
    const big = defineTool({
      name: 'big',
      description: 'd',
      effect: 'read',
      input: z.object({}),
      execute: () => 'x'.repeat(10_000),
    });
    const r = await make([big], { log }).call({ tool: 'big' });
    expect(textOf(r)).toHaveLength(10_000);
    const logged = log.entries[0].result![0] as { text: string };
    expect(logged.text.length).toBeLessThan(2300);
    expect(logged.text).toContain('10000 characters in total');
  });

  it('explain() says what would happen and runs nothing', async () => {
    let ran = false;
    const t = defineTool({
      name: 'x',
      description: 'd',
      effect: 'destructive',
      input: z.object({}),
      execute: () => {
        ran = true;
        return '';
      },
    });
    const ex = make([t], { policy: new Policy({ mode: 'auto-edit' }) });
    const e = await ex.explain({ tool: 'x' });
    expect(e.effect).toBe('destructive');
    expect(e.decision).toMatchObject({ action: 'ask', source: 'mode' });
    expect(ran).toBe(false);
  });
});
