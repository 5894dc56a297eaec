// The call pipeline: lookup -> validate -> classify -> decide -> approve -> execute -> result.
// Every path ends in a ToolResult value; nothing is thrown out of call(). Each call travels as one
// Call object (call.ts); the executor owns what calls share: registry, policy, events, cache, metrics.
import type { Approver } from '../approval.js';
import type { ExecutorSettings } from '../config/apply.js';
import { ApprovalRouter, type ApproversByOrigin } from '../approval-router.js';
import { ElicitationRouter, type Elicitor, type ElicitorsByOrigin } from '../elicitation.js';
import { EventBus, type ToolEvent } from '../events.js';
import { Policy } from '../policy/policy.js';
import type { ToolSource } from '../source.js';
import { errorResult, type ToolResult } from '../result.js';
import type { StructuredText } from '../structured-text.js';
import { frozenCopy } from '../frozen.js';
import type { Effect, SessionState, Tool, ToolConfig, ToolEmit, Workspace } from '../tool.js';
import { AliasIndex, findTool } from './aliases.js';
import { Deadline, toFailure } from './attempt.js';
import { ReadCache } from './cache.js';
import { Call } from './call.js';
import type { CallHost, EventBody } from './call-host.js';
import { newCallId, toolName } from './call-input.js';
import { logEntry, LogSinks, type LogRedaction, type LogSink } from './log.js';
import { Metrics } from './metrics.js';
import type { CallRequest, Explanation } from './request.js';

export type { CallRequest, Explanation };

export interface ExecutorOptions {
  registry: ToolSource;
  policy?: Policy;
  /** Asked when the policy says "ask" about a call whose origin has no approver of its own. Default: reject (non-interactive). */
  approver?: Approver;
  /** Approvers by the front end a call came from; more can join later through `approvals.register`. */
  approvers?: ApproversByOrigin;
  /** Answers a tool's question (ctx.elicit) from an origin with no elicitor of its own. Default: decline. */
  elicitor?: Elicitor;
  /** Elicitors by the front end a call came from; more can join through `elicitations.register`. */
  elicitors?: ElicitorsByOrigin;
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
  /**
   * How structured data reaches a model as text (a tool output with only `structured`, an MCP `json`
   * block): `json`, pretty-printed (default), or `toon`, TOON or compact JSON, whichever is shorter.
   */
  structuredText?: StructuredText;
  retryBaseDelayMs?: number;
  /** What the execution log leaves out: parameter values by name, results. */
  logRedaction?: LogRedaction;
  /**
   * The config section of a tool's package, handed to its calls as `ctx.config` (a frozen copy,
   * made once per section object). The embedder knows the config; core knows no section names.
   */
  toolConfig?: (tool: Tool) => object | undefined;
  /**
   * Whether calls may use other tool sets' names for tools and parameters (`bash`, `Read`,
   * `old_str`), as the tools declare them (ToolAliases). Default true.
   */
  aliases?: boolean;
}

export class Executor {
  readonly registry: ToolSource;
  readonly policy: Policy;
  readonly events: EventBus;
  readonly metrics = new Metrics();
  readonly cache = new ReadCache();
  /** Which approver asks about a call, by where the call came from. */
  readonly approvals: ApprovalRouter;
  /** Who answers a tool's question (an MCP server's elicitation), by where the call came from. */
  readonly elicitations: ElicitationRouter;
  /** Where each finished call is logged; front ends add their own sinks. */
  readonly logs: LogSinks;
  /** How structured data reaches a model as text; front ends that render `json` blocks follow it. */
  readonly structuredText: StructuredText;
  /** The settings a config gives (core's executorOptionsFrom) as this executor got them; unset ones are defaults. */
  readonly settings: Readonly<ExecutorSettings>;
  private readonly opts: ExecutorOptions;
  private readonly sessions = new Map<string, SessionState>();
  private readonly configs = new WeakMap<Tool, ToolConfig | undefined>();
  /** One frozen copy per section object, however many tools share it. */
  private readonly sections = new WeakMap<object, ToolConfig>();
  private readonly inFlight = new Set<Deadline>();
  private readonly host: CallHost;
  private active = 0;
  private closed = false;

  constructor(opts: ExecutorOptions) {
    this.opts = opts;
    this.registry = opts.registry;
    this.policy = opts.policy ?? new Policy();
    this.approvals = new ApprovalRouter(opts.approver, opts.approvers);
    this.elicitations = new ElicitationRouter(opts.elicitor, opts.elicitors);
    this.logs = new LogSinks(opts.log);
    this.events = opts.events ?? new EventBus();
    this.structuredText = opts.structuredText ?? 'json';
    this.settings = settingsOf(opts);
    this.host = {
      registry: this.registry,
      policy: this.policy,
      events: this.events,
      cache: this.cache,
      inFlight: this.inFlight,
      contexts: this,
      ...(opts.aliases === false ? {} : { aliases: new AliasIndex(this.registry) }),
      limits: {
        defaultTimeoutMs: opts.defaultTimeoutMs ?? 120_000,
        maxTimeoutMs: opts.maxTimeoutMs ?? 600_000,
        approvalTimeoutMs: opts.approvalTimeoutMs ?? 15 * 60_000,
        maxOutputChars: opts.maxOutputChars ?? 50_000,
        structuredText: this.structuredText,
        retryBaseDelayMs: opts.retryBaseDelayMs ?? 200,
      },
      isClosed: () => this.closed,
      approve: (request, signal) => this.approvals.ask(request, signal),
      emit: (req, event) => this.emit(req, event),
    };
  }

  readonly elicit: Elicitor = (request, signal) => this.elicitations.ask(request, signal);

  get workspace(): Workspace | undefined {
    return this.opts.workspace;
  }

  /** The frozen config section `ctx.config` holds for this tool's calls (undefined: none given). */
  toolConfig(name: string): ToolConfig | undefined {
    const tool = this.opts.toolConfig && this.registry.get(name);
    if (!tool) return undefined;
    if (!this.configs.has(tool)) {
      const section = this.opts.toolConfig!(tool);
      if (section && !this.sections.has(section)) this.sections.set(section, frozenCopy(section) as ToolConfig);
      this.configs.set(tool, section && this.sections.get(section));
    }
    return this.configs.get(tool);
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
    const call = new Call(this.host, req, req.callId ?? newCallId(), started);
    let result: ToolResult;
    this.enter(req);
    try {
      const preparing = call.prepare();
      if (preparing) await preparing;
      result = call.refusal ?? (await call.run());
    } catch (err) {
      // Only a bug in a hook (effect, preview, approver) can land here; it still becomes a value.
      const name = toolName(req.tool);
      const f = toFailure(err, name);
      result = errorResult(call.callId, name, f.code, f.message, { recoverable: f.recoverable });
    }
    result.durationMs = performance.now() - started;
    if (call.calledAs) result.metadata = { ...result.metadata, calledAs: call.calledAs };
    // What the metrics count is the tool's own time: not the time people took to approve or answer it.
    this.finish(req, call.input, result, call.approvalWaitMs + (call.ctx?.waitedMs ?? 0));
    return result;
  }

  /**
   * The tool a call by this name runs: the registered one, or the one that claims the name as an
   * alias (`bash` -> shell_exec); undefined when none does, or several (front ends that record calls by tool).
   */
  toolFor(name: string, input?: unknown): Tool | undefined {
    const found = findTool(this.registry, this.host.aliases, name, input);
    return 'tool' in found ? found.tool : undefined;
  }

  /** What would happen to this call, without running it: lookup, validation, classification, decision. */
  async explain(req: CallRequest): Promise<Explanation> {
    const call = new Call(this.host, req, req.callId ?? 'explain', performance.now());
    await call.prepare();
    return call.explanation();
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
    await this.logs.flush();
  }

  /** The effect runAll orders by: the static one, or the tool's verdict on the parsed input (no validate). */
  private async effectOf(req: CallRequest): Promise<Effect | undefined> {
    const known = this.registry.get(req.tool);
    if (known && typeof known.effect === 'string') return known.effect;
    const call = new Call(this.host, req, 'classify', performance.now());
    if (!call.admit()) return undefined;
    if (typeof call.tool.effect === 'string') return call.tool.effect;
    try {
      const verdict = await call.verdict();
      return typeof verdict === 'string' ? verdict : verdict.effect;
    } catch {
      return undefined;
    }
  }

  /** Called by a tool's ctx.emit. */
  toolEmitted(tool: string, req: CallRequest, callId: string, e: ToolEmit): void {
    if (e.type === 'file.changed') this.cache.invalidatePath(e.path);
    if (!this.events.active) return;
    if (e.type === 'progress')
      this.emit(req, { type: 'tool.progress', callId, tool, progress: e.progress, total: e.total, message: e.message });
    else if (e.type === 'output')
      this.emit(req, { type: 'tool.output', callId, tool, stream: e.stream, chunk: e.chunk });
    else this.emit(req, { type: 'file.changed', callId, tool, path: e.path, operation: e.operation });
  }

  private enter(req: CallRequest): void {
    if (this.active++ === 0 && this.events.active) this.emit(req, { type: 'agent.state', state: 'tool_execution' });
  }

  /** `waitedMs`: time spent waiting for people, left out of the latency metrics (durationMs keeps it). */
  private finish(req: CallRequest, input: unknown, result: ToolResult, waitedMs: number): void {
    this.metrics.record(result.tool, result.status, Math.max(0, result.durationMs - waitedMs));
    if (this.events.active) this.emit(req, { type: 'tool.result', callId: result.callId, tool: result.tool, result });
    if (--this.active === 0 && this.events.active) this.emit(req, { type: 'agent.state', state: 'idle' });
    if (this.logs.size) this.logs.write(logEntry(req, input, result, this.opts.logRedaction));
  }

  private emit(req: CallRequest, event: EventBody): void {
    // The literal passed in is fresh, so filling it in place saves a copy per event.
    const full = event as ToolEvent;
    full.ts = Date.now();
    full.sessionId = req.sessionId ?? 'default';
    if (req.runId) full.runId = req.runId;
    if (req.agentId) full.agentId = req.agentId;
    this.events.emit(full);
  }
}

/** The options a config sets (ExecutorSettings): those given, for a front end to show and a test to compare. */
const SETTING_KEYS: readonly (keyof ExecutorSettings)[] = [
  'maxOutputChars',
  'defaultTimeoutMs',
  'approvalTimeoutMs',
  'structuredText',
  'aliases',
  'logRedaction',
];

function settingsOf(opts: ExecutorOptions): Readonly<ExecutorSettings> {
  const given = SETTING_KEYS.flatMap((k) => (opts[k] === undefined ? [] : [[k, opts[k]] as const]));
  return Object.freeze(Object.fromEntries(given) as ExecutorSettings);
}

export { newCallId };
