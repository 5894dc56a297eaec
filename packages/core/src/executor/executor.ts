// The call pipeline: lookup -> validate -> classify -> decide -> approve -> execute -> result.
// Every path ends in a ToolResult value; nothing is thrown out of call().
import { rejectAll, type ApprovalDecision, type ApprovalRequest, type Approver } from '../approval.js';
import { EventBus, type ToolEvent } from '../events.js';
import { Policy } from '../policy/policy.js';
import type { PolicyDecision } from '../policy/types.js';
import type { ToolSource } from '../registry.js';
import { errorResult, rejectedResult, type ApprovedBy, type ToolResult } from '../result.js';
import type { Classification, Effect, SessionState, Tool, ToolContext, ToolEmit, Workspace } from '../tool.js';
import { backoffDelay, Deadline, describeError, retryAttempts, toFailure, TimeoutReason } from './attempt.js';
import { ReadCache } from './cache.js';
import { logEntry, type LogSink } from './log.js';
import { Metrics } from './metrics.js';
import { unknownToolMessage } from './suggest.js';
import { outputToResult } from './truncate.js';
import { CallContext } from './call-context.js';
import { admitInput, newCallId, REFUSED_INPUT, rememberTarget, STATIC_CLASSIFICATION, toolName } from './call-input.js';

export interface ExecutorOptions {
  registry: ToolSource;
  policy?: Policy;
  /** Asked when the policy says "ask". Default: reject (non-interactive). */
  approver?: Approver;
  workspace?: Workspace;
  events?: EventBus;
  log?: LogSink;
  /** Per call, unless the tool or the request says otherwise. Default 120 s. */
  defaultTimeoutMs?: number;
  /** No request may ask for more. Default 10 min. */
  maxTimeoutMs?: number;
  /** How long an approval may take before the call is rejected. Default 15 min. */
  approvalTimeoutMs?: number;
  /** Text returned to the model beyond this is cut to head and tail. Default 50,000. */
  maxOutputChars?: number;
  retryBaseDelayMs?: number;
}

export interface CallRequest {
  tool: string;
  input?: unknown;
  callId?: string;
  sessionId?: string;
  runId?: string;
  agentId?: string;
  model?: string;
  signal?: AbortSignal;
  timeoutMs?: number;
}

export interface Explanation {
  tool: string;
  effect?: Effect;
  classification?: Classification;
  decision?: PolicyDecision;
  /** Set when the call would fail before policy (unknown tool, bad input). */
  error?: ToolResult['error'];
}

type Prepared =
  | { ok: true; tool: Tool; input: unknown; ctx: ToolContext; deadline: Deadline; classification: Classification; decision: PolicyDecision }
  | { ok: false; result: ToolResult; input?: unknown };

export class Executor {
  readonly registry: ToolSource;
  readonly policy: Policy;
  readonly events: EventBus;
  readonly metrics = new Metrics();
  readonly cache = new ReadCache();
  approver: Approver;
  private readonly opts: ExecutorOptions;
  private readonly sessions = new Map<string, SessionState>();
  private readonly inFlight = new Set<Deadline>();
  private active = 0;
  private closed = false;

  constructor(opts: ExecutorOptions) {
    this.opts = opts;
    this.registry = opts.registry;
    this.policy = opts.policy ?? new Policy();
    this.approver = opts.approver ?? rejectAll;
    this.events = opts.events ?? new EventBus();
  }

  get workspace(): Workspace | undefined {
    return this.opts.workspace;
  }

  session(id: string): SessionState {
    let s = this.sessions.get(id);
    if (!s) {
      s = new Map();
      this.sessions.set(id, s);
    }
    return s;
  }

  /** Runs one call through the whole pipeline. Never throws. */
  async call(req: CallRequest): Promise<ToolResult> {
    const started = performance.now();
    const callId = req.callId ?? newCallId();
    const name = toolName(req.tool);
    let result: ToolResult;
    let input: unknown = req.input;
    this.enter(req);
    try {
      let prepared = this.prepare(req, callId);
      if (prepared instanceof Promise) prepared = await prepared;
      if (!prepared.ok) {
        result = prepared.result;
        if ('input' in prepared) input = prepared.input;
      } else {
        input = prepared.input;
        result = await this.decideAndRun(prepared, req, callId, started);
      }
    } catch (err) {
      // Only a bug in a hook (effect, preview, approver) can land here; it still becomes a value.
      const f = toFailure(err, name);
      result = errorResult(callId, name, f.code, f.message, { recoverable: f.recoverable });
    }
    result.durationMs = performance.now() - started;
    this.finish(req, input, result);
    return result;
  }

  /** What would happen to this call, without running it. */
  async explain(req: CallRequest): Promise<Explanation> {
    const prepared = await this.prepare(req, req.callId ?? 'explain');
    if (!prepared.ok) return { tool: req.tool, error: prepared.result.error };
    return { tool: req.tool, effect: prepared.classification.effect, classification: prepared.classification, decision: prepared.decision };
  }

  /** Reads run in parallel; anything else runs alone, in the order given. */
  async runAll(calls: CallRequest[]): Promise<ToolResult[]> {
    const results: ToolResult[] = new Array(calls.length);
    let batch: Promise<void>[] = [];
    for (let i = 0; i < calls.length; i++) {
      const isRead = (await this.effectOf(calls[i])) === 'read';
      if (isRead) {
        batch.push(this.call(calls[i]).then((r) => void (results[i] = r)));
        continue;
      }
      await Promise.all(batch);
      batch = [];
      results[i] = await this.call(calls[i]);
    }
    await Promise.all(batch);
    return results;
  }

  /** Cancels every call in flight and disposes tools that hold processes or connections. */
  async close(): Promise<void> {
    this.closed = true;
    for (const d of this.inFlight) d.abort(new Error('executor closed'));
    const disposals = this.registry.list().map((t) => (t as { dispose?: () => unknown }).dispose?.());
    await Promise.allSettled(disposals);
    await this.opts.log?.flush?.();
  }

  private async effectOf(req: CallRequest): Promise<Effect | undefined> {
    const tool = this.registry.get(req.tool);
    if (!tool) return undefined;
    if (typeof tool.effect === 'string') return tool.effect;
    const admitted = admitInput(req.input);
    const parsed = admitted.ok ? tool.parse(admitted.value) : undefined;
    if (!parsed?.ok) return undefined;
    try {
      const ctx = this.context(tool, req, 'classify', new Deadline());
      const c = await tool.effect(parsed.value, ctx);
      return typeof c === 'string' ? c : c.effect;
    } catch {
      return undefined;
    }
  }

  /** Lookup, validation, classification and the policy decision; synchronous unless a hook is async. */
  private prepare(req: CallRequest, callId: string): Prepared | Promise<Prepared> {
    const name = req.tool;
    if (this.closed) return { ok: false, result: errorResult(callId, name, 'ABORTED', 'the executor is closed; no more calls are taken') };
    const tool = typeof name === 'string' ? this.registry.get(name) : undefined;
    if (!tool) return { ok: false, result: errorResult(callId, toolName(name), 'UNKNOWN_TOOL', unknownToolMessage(toolName(name), this.registry)) };

    const admitted = admitInput(req.input);
    if (!admitted.ok) {
      return { ok: false, result: errorResult(callId, name, 'INVALID_PARAMS', `Invalid parameters for ${name}: ${admitted.problem}.`, { recoverable: true }), input: REFUSED_INPUT };
    }
    const parsed = tool.parse(admitted.value);
    if (!parsed.ok) {
      return { ok: false, result: errorResult(callId, name, 'INVALID_PARAMS', `Invalid parameters for ${name}: ${parsed.message}. Fix them and call again.`, { recoverable: true }) };
    }
    const input = parsed.value;
    const deadline = new Deadline();
    const ctx = this.context(tool, req, callId, deadline);
    if (!tool.validate && typeof tool.effect === 'string') return this.decide(tool, input, ctx, deadline, STATIC_CLASSIFICATION[tool.effect]);
    return this.classify(tool, input, ctx, deadline);
  }

  private async classify(tool: Tool, input: unknown, ctx: ToolContext, deadline: Deadline): Promise<Prepared> {
    const name = tool.name;
    try {
      if (tool.validate) {
        const problem = await tool.validate(input, ctx);
        if (problem) return { ok: false, result: errorResult(ctx.callId, name, 'INVALID_PARAMS', `Invalid parameters for ${name}: ${problem}`, { recoverable: true }) };
      }
      const raw = typeof tool.effect === 'function' ? await tool.effect(input, ctx) : tool.effect;
      return this.decide(tool, input, ctx, deadline, typeof raw === 'string' ? STATIC_CLASSIFICATION[raw] : raw);
    } catch (err) {
      const f = toFailure(err, name);
      return { ok: false, result: errorResult(ctx.callId, name, f.code, f.message, { recoverable: f.recoverable }) };
    }
  }

  private decide(tool: Tool, input: unknown, ctx: ToolContext, deadline: Deadline, classification: Classification): Prepared | Promise<Prepared> {
    // Saved "always" approvals are loaded before the first decision, by whoever built the policy.
    const loading = this.policy.ready();
    if (loading) {
      return loading.then(
        () => this.decide(tool, input, ctx, deadline, classification),
        (err: unknown): Prepared => ({ ok: false, result: errorResult(ctx.callId, tool.name, 'EXECUTION_FAILED', `${tool.name} was not run: the saved "always" approvals could not be loaded: ${describeError(err)}`) }),
      );
    }
    const decision = this.policy.decide({
      tool: tool.name,
      effect: classification.effect,
      input,
      subject: classification.subject,
      blocked: classification.blocked,
      alwaysAsk: classification.alwaysAsk,
      sessionId: ctx.sessionId,
    });
    return { ok: true, tool, input, ctx, deadline, classification, decision };
  }

  private async decideAndRun(p: Extract<Prepared, { ok: true }>, req: CallRequest, callId: string, started: number): Promise<ToolResult> {
    const { tool, input, ctx, classification, decision, deadline } = p;
    const name = tool.name;
    this.inFlight.add(deadline);
    // Linking the caller's signal costs an EventTarget listener, so only when there is one.
    const outer = req.signal;
    const onOuterAbort = outer ? () => deadline.abort(outer.reason ?? new Error('aborted')) : undefined;
    if (outer) {
      if (outer.aborted) onOuterAbort!();
      else outer.addEventListener('abort', onOuterAbort!, { once: true });
    }
    try {
      if (this.events.active) this.emit(req, { type: 'tool.call', callId, tool: name, input, effect: classification.effect, requiresApproval: decision.action === 'ask' });
      if (decision.action === 'deny') {
        const hint = decision.source === 'rule' ? ' Do not retry this call; ask the user to change the rule if it is needed.' : ' This is never allowed; do something else.';
        return errorResult(callId, name, 'PERMISSION_DENIED', `${name} was denied by policy: ${decision.reason}.${hint}`);
      }
      let approvedBy: ApprovedBy = decision.source === 'mode' ? 'auto' : decision.source === 'remembered' ? 'remembered' : 'rule';
      if (decision.action === 'ask') {
        const verdict = await this.askApproval(tool, input, ctx, classification, decision, req, deadline);
        if (verdict.outcome === 'reject') {
          return rejectedResult(callId, name, verdict.reason ?? `The user rejected this ${name} call`, verdict.message);
        }
        approvedBy = 'user';
      }
      const result = await this.execute(tool, input, ctx, deadline, classification, req, started);
      result.approvedBy = approvedBy;
      return result;
    } finally {
      if (outer) outer.removeEventListener('abort', onOuterAbort!);
      this.inFlight.delete(deadline);
    }
  }

  private async askApproval(tool: Tool, input: unknown, ctx: ToolContext, c: Classification, decision: PolicyDecision, req: CallRequest, deadline: Deadline): Promise<ApprovalDecision> {
    const remember = rememberTarget(tool.name, c);
    const request: ApprovalRequest = {
      callId: ctx.callId,
      sessionId: ctx.sessionId,
      tool: tool.name,
      ...(tool.title ? { title: tool.title } : {}),
      description: tool.description,
      input,
      effect: c.effect,
      reason: c.reason ? `${decision.reason}; ${c.reason}` : decision.reason,
      warnings: c.warnings ?? [],
      remember,
      ...(req.runId ? { runId: req.runId } : {}),
      ...(req.agentId ? { agentId: req.agentId } : {}),
    };
    const preview = tool.preview ? await tool.preview(input, ctx) : undefined;
    if (preview) request.preview = preview;
    this.emit(req, { type: 'approval.requested', callId: ctx.callId, tool: tool.name, request });
    const limit = this.opts.approvalTimeoutMs ?? 15 * 60_000;
    let verdict: ApprovalDecision;
    try {
      verdict = await deadline.run(() => this.approver(request, deadline.signal), limit);
    } catch (err) {
      if (deadline.stopped !== undefined) throw err;
      const timedOut = err instanceof TimeoutReason;
      verdict = {
        outcome: 'reject',
        reason: timedOut ? `${tool.name} was not run: no one approved it within ${limit} ms` : `${tool.name} was not run: asking for approval failed (${describeError(err)})`,
      };
    }
    if (verdict.outcome === 'approve' && (verdict.scope === 'session' || verdict.scope === 'always')) {
      // An approver may narrow or re-aim what is remembered, but only for this same tool.
      const target = verdict.remember && verdict.remember.tool === tool.name ? verdict.remember : remember;
      await this.policy.remember(target, verdict.scope, ctx.sessionId, c.effect);
    }
    this.emit(req, { type: 'approval.resolved', callId: ctx.callId, tool: tool.name, decision: verdict, ...(verdict.outcome === 'approve' ? { approvedBy: 'user' as const } : {}) });
    return verdict;
  }

  private async execute(tool: Tool, input: unknown, ctx: ToolContext, deadline: Deadline, c: Classification, req: CallRequest, started: number): Promise<ToolResult> {
    const cacheable = c.effect === 'read' && (tool.cacheTtlMs ?? 0) > 0;
    const key = cacheable ? ReadCache.key(tool.name, input) : '';
    if (cacheable) {
      const hit = this.cache.get(key);
      if (hit) return { ...hit, callId: ctx.callId, metadata: { ...hit.metadata, cached: true } };
    }
    const timeoutMs = Math.min(req.timeoutMs ?? tool.timeoutMs ?? this.opts.defaultTimeoutMs ?? 120_000, this.opts.maxTimeoutMs ?? 600_000);
    const extra = retryAttempts(tool.retry);
    const base = tool.retry?.baseDelayMs ?? this.opts.retryBaseDelayMs ?? 200;
    for (let attempt = 0; ; attempt++) {
      if (this.events.active) this.emit(req, { type: 'tool.started', callId: ctx.callId, tool: tool.name, attempt: attempt + 1 });
      try {
        let output = deadline.run(() => tool.execute(input, ctx), timeoutMs);
        if (output instanceof Promise) output = await output;
        const result = outputToResult(tool.name, ctx.callId, output, this.opts.maxOutputChars ?? 50_000);
        if (attempt > 0) result.metadata = { ...result.metadata, attempts: attempt + 1 };
        if (cacheable && result.status === 'success') this.cache.set(key, result, tool.cacheTtlMs!, c.subject?.paths);
        if (c.effect !== 'read') for (const p of c.subject?.paths ?? []) this.cache.invalidatePath(p);
        return result;
      } catch (err) {
        let f = toFailure(err, tool.name, deadline.stopped);
        if (f.recoverable && attempt < extra && deadline.stopped === undefined) {
          if (await deadline.pause(backoffDelay(attempt, base))) continue;
          f = toFailure(undefined, tool.name, deadline.stopped); // stopped while waiting to retry
        }
        return errorResult(ctx.callId, tool.name, f.code, f.message, { recoverable: f.recoverable, durationMs: performance.now() - started, ...(attempt > 0 ? { metadata: { attempts: attempt + 1 } } : {}) });
      }
    }
  }

  private context(tool: Tool, req: CallRequest, callId: string, deadline: Deadline): ToolContext {
    return new CallContext(this, tool.name, req, callId, deadline);
  }

  /** Called by a tool's ctx.emit. */
  toolEmitted(tool: string, req: CallRequest, callId: string, e: ToolEmit): void {
    if (e.type === 'file.changed') this.cache.invalidatePath(e.path);
    if (!this.events.active) return;
    if (e.type === 'progress') this.emit(req, { type: 'tool.progress', callId, tool, progress: e.progress, total: e.total, message: e.message });
    else if (e.type === 'output') this.emit(req, { type: 'tool.output', callId, tool, stream: e.stream, chunk: e.chunk });
    else this.emit(req, { type: 'file.changed', callId, tool, path: e.path, operation: e.operation });
  }

  private enter(req: CallRequest): void {
    if (this.active++ === 0 && this.events.active) this.emit(req, { type: 'agent.state', state: 'tool_execution' });
  }

  private finish(req: CallRequest, input: unknown, result: ToolResult): void {
    this.metrics.record(result.tool, result.status, result.durationMs);
    if (this.events.active) this.emit(req, { type: 'tool.result', callId: result.callId, tool: result.tool, result });
    if (--this.active === 0 && this.events.active) this.emit(req, { type: 'agent.state', state: 'idle' });
    this.opts.log?.write(logEntry(req, input, result));
  }

  private emit(req: CallRequest, event: DistributiveOmit<ToolEvent, 'ts' | 'sessionId' | 'runId' | 'agentId'>): void {
    // The literal passed in is fresh, so filling it in place saves a copy per event.
    const full = event as ToolEvent;
    full.ts = Date.now();
    full.sessionId = req.sessionId ?? 'default';
    if (req.runId) full.runId = req.runId;
    if (req.agentId) full.agentId = req.agentId;
    this.events.emit(full);
  }
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

export { rememberTarget, newCallId };
