// One call through the pipeline as one object: each stage is a method, and what a stage learns (the
// tool, the parsed input, the invocation, the verdict, the decision) is a field the next one reads.
import type { PolicyDecision } from '../policy/types.js';
import { errorResult, rejectedResult, type ApprovedBy, type ToolErrorCode, type ToolResult } from '../result.js';
import {
  type Classification,
  type Effect,
  type Invocation,
  type Tool,
  type ToolAlias,
  type ToolOutput,
} from '../tool.js';
import { backoffDelay, Deadline, describeError, retryAttempts, toFailure } from './attempt.js';
import { ReadCache } from './cache.js';
import { CallContext } from './call-context.js';
import type { CallHost } from './call-host.js';
import { findTool, inOwnWords } from './aliases.js';
import { admitInput, REFUSED_INPUT, STATIC_CLASSIFICATION, toolName } from './call-input.js';
import { askApproval } from './call-approval.js';
import type { CallRequest, Explanation } from './request.js';
import { outputToResult } from './truncate.js';

export class Call {
  /** The raw input until it is parsed, then the parsed one (a note in its place when refused for its shape). */
  input: unknown;
  tool!: Tool;
  ctx!: CallContext;
  deadline!: Deadline;
  /** The tool's own object for this call, when it has `prepare`. */
  invocation: Invocation | undefined = undefined;
  classification!: Classification;
  decision!: PolicyDecision;
  /** Milliseconds spent waiting for the approval decision. */
  approvalWaitMs = 0;
  /** The name the call came with, when it was another tool set's name for this tool. */
  calledAs: string | undefined = undefined;
  private alias: ToolAlias | undefined = undefined;
  /** Set when the call ended before it could run: unknown tool, bad input, a failing hook. */
  refusal: ToolResult | undefined = undefined;

  constructor(
    readonly host: CallHost,
    readonly req: CallRequest,
    readonly callId: string,
    readonly started: number,
  ) {
    this.input = req.input;
  }

  /** Lookup, validation, classification and the policy decision; synchronous unless a hook is async. */
  prepare(): void | Promise<void> {
    if (this.host.isClosed()) return this.refuse('ABORTED', 'the executor is closed; no more calls are taken', false);
    if (!this.admit()) return;
    const tool = this.tool;
    if (!tool.validate && !tool.prepare && typeof tool.effect === 'string')
      return this.decide(STATIC_CLASSIFICATION[tool.effect]);
    return this.classify();
  }

  /** Finds the tool (by its name or another tool set's) and parses the input; false, with the refusal set, when either fails. */
  admit(): boolean {
    const admitted = admitInput(this.req.input);
    const tool = this.lookup(admitted.ok ? admitted.value : undefined);
    if (!tool) return false;
    this.tool = tool;
    const name = tool.name;
    if (!admitted.ok) {
      this.input = REFUSED_INPUT;
      this.refuse('INVALID_PARAMS', `Invalid parameters for ${name}: ${admitted.problem}.`, true);
      return false;
    }
    const parsed = tool.parse(this.host.aliases ? inOwnWords(tool, admitted.value, this.alias) : admitted.value);
    if (!parsed.ok) {
      this.refuse(
        'INVALID_PARAMS',
        `Invalid parameters for ${name}: ${parsed.message}. Fix them and call again.`,
        true,
      );
      return false;
    }
    this.input = parsed.value;
    this.deadline = new Deadline();
    this.ctx = new CallContext(this.host.contexts, tool.name, this.req, this.callId, this.deadline);
    return true;
  }

  /** The registered tool of that name, else the one that claims it as an alias; refuses when none or several do. */
  private lookup(input: unknown): Tool | undefined {
    const found = findTool(this.host.registry, this.host.aliases, this.req.tool, input);
    if ('refusal' in found) return void this.refuse('UNKNOWN_TOOL', found.refusal, found.recoverable);
    if (found.alias) [this.calledAs, this.alias] = [this.req.tool, found.alias.alias];
    return found.tool;
  }

  /** The tool's verdict: its invocation's when it has `prepare` (kept for the later stages), else its effect's. */
  async verdict(): Promise<Effect | Classification> {
    const tool = this.tool;
    if (tool.prepare) {
      const invocation = await tool.prepare(this.input, this.ctx);
      if (typeof invocation?.run !== 'function') throw new Error('its prepare() returned no invocation with a run()');
      this.invocation = invocation;
      return invocation.classification;
    }
    return typeof tool.effect === 'function' ? tool.effect(this.input, this.ctx) : tool.effect!;
  }

  /** Runs a prepared call: deny, ask, or execute. Only for a call that prepare() left unrefused. */
  async run(): Promise<ToolResult> {
    const { deadline, req, callId, decision, host } = this;
    const name = this.tool.name;
    host.inFlight.add(deadline);
    // Linking the caller's signal costs an EventTarget listener, so only when there is one.
    const outer = req.signal;
    const onOuterAbort = outer ? () => deadline.abort(outer.reason ?? new Error('aborted')) : undefined;
    if (outer) {
      if (outer.aborted) onOuterAbort!();
      else outer.addEventListener('abort', onOuterAbort!, { once: true });
    }
    try {
      if (host.events.active)
        host.emit(req, {
          type: 'tool.call',
          callId,
          tool: name,
          input: this.input,
          effect: this.classification.effect,
          requiresApproval: decision.action === 'ask',
        });
      if (decision.action === 'deny') {
        const hint =
          decision.source === 'rule'
            ? ' Do not retry this call; ask the user to change the rule if it is needed.'
            : ' This is never allowed; do something else.';
        return errorResult(
          callId,
          name,
          'PERMISSION_DENIED',
          `${name} was denied by policy: ${decision.reason}.${hint}`,
        );
      }
      let approvedBy: ApprovedBy =
        decision.source === 'mode' ? 'auto' : decision.source === 'remembered' ? 'remembered' : 'rule';
      if (decision.action === 'ask') {
        const verdict = await askApproval(this);
        if (verdict.outcome === 'reject')
          return rejectedResult(callId, name, verdict.reason ?? `The user rejected this ${name} call`, verdict.message);
        approvedBy = 'user';
      }
      const result = await this.execute();
      result.approvedBy = approvedBy;
      return result;
    } finally {
      if (outer) outer.removeEventListener('abort', onOuterAbort!);
      host.inFlight.delete(deadline);
    }
  }

  explanation(): Explanation {
    if (this.refusal) return { tool: this.req.tool, error: this.refusal.error };
    return {
      tool: this.req.tool,
      effect: this.classification.effect,
      classification: this.classification,
      decision: this.decision,
    };
  }

  private async classify(): Promise<void> {
    const { tool } = this;
    try {
      if (tool.validate) {
        const problem = await tool.validate(this.input, this.ctx);
        if (problem) return this.refuse('INVALID_PARAMS', `Invalid parameters for ${tool.name}: ${problem}`, true);
      }
      const verdict = await this.verdict();
      await this.decide(typeof verdict === 'string' ? STATIC_CLASSIFICATION[verdict] : verdict);
    } catch (err) {
      const f = toFailure(err, tool.name);
      this.refuse(f.code, f.message, f.recoverable);
    }
  }

  private decide(classification: Classification): void | Promise<void> {
    const { policy } = this.host;
    // Saved "always" approvals are loaded before the first decision, by whoever built the policy.
    const loading = policy.ready();
    if (loading) {
      const name = this.tool.name;
      return loading.then(
        () => this.decide(classification),
        (err: unknown) =>
          this.refuse(
            'EXECUTION_FAILED',
            `${name} was not run: the saved "always" approvals could not be loaded: ${describeError(err)}`,
            false,
          ),
      );
    }
    this.classification = classification;
    this.decision = policy.decide({
      tool: this.tool.name,
      effect: classification.effect,
      input: this.input,
      subject: classification.subject,
      floor: classification.floor,
      vouchedFor: classification.vouchedFor,
      sessionId: this.ctx.sessionId,
      agentId: this.req.agentId,
    });
  }

  private refuse(code: ToolErrorCode, message: string, recoverable: boolean): void {
    this.refusal = errorResult(this.callId, this.tool?.name ?? toolName(this.req.tool), code, message, { recoverable });
  }

  /** Attempts until one succeeds, fails for good, or the retries run out; read results are cached. */
  private async execute(): Promise<ToolResult> {
    const { tool, host, deadline, callId, classification: c } = this;
    const cacheable = c.effect === 'read' && (tool.cacheTtlMs ?? 0) > 0;
    const key = cacheable ? ReadCache.key(tool.name, this.input) : '';
    if (cacheable) {
      const hit = host.cache.get(key);
      if (hit) return { ...hit, callId, metadata: { ...hit.metadata, cached: true } };
    }
    const { limits } = host;
    const timeoutMs = Math.min(this.req.timeoutMs ?? tool.timeoutMs ?? limits.defaultTimeoutMs, limits.maxTimeoutMs);
    const extra = retryAttempts(tool.retry);
    const base = tool.retry?.baseDelayMs ?? limits.retryBaseDelayMs;
    for (let attempt = 0; ; attempt++) {
      if (host.events.active)
        host.emit(this.req, { type: 'tool.started', callId, tool: tool.name, attempt: attempt + 1 });
      try {
        let output = deadline.run(() => this.body(), timeoutMs);
        if (output instanceof Promise) output = await output;
        const result = outputToResult(tool.name, callId, output, limits.maxOutputChars, limits.structuredText);
        if (attempt > 0) result.metadata = { ...result.metadata, attempts: attempt + 1 };
        if (cacheable && result.status === 'success') host.cache.set(key, result, tool.cacheTtlMs!, c.subject?.paths);
        if (c.effect !== 'read') for (const p of c.subject?.paths ?? []) host.cache.invalidatePath(p);
        return result;
      } catch (err) {
        let f = toFailure(err, tool.name, deadline.stopped);
        if (f.recoverable && attempt < extra && deadline.stopped === undefined) {
          if (await deadline.pause(backoffDelay(attempt, base))) continue;
          f = toFailure(undefined, tool.name, deadline.stopped); // stopped while waiting to retry
        }
        const metadata = attempt > 0 ? { metadata: { attempts: attempt + 1 } } : {};
        return errorResult(callId, tool.name, f.code, f.message, {
          recoverable: f.recoverable,
          durationMs: performance.now() - this.started,
          ...metadata,
        });
      }
    }
  }

  /** One attempt's work: the invocation's run, or the tool's execute. */
  private body(): Promise<ToolOutput | string> | ToolOutput | string {
    return this.invocation ? this.invocation.run() : this.tool.execute!(this.input, this.ctx);
  }
}
