// The whole contract a tool author needs: what a tool is, what it receives, what it returns.
// A tool gives `effect` + `execute` (+ `preview`), or one `prepare` returning the call's Invocation
// (gemini-cli's ToolInvocation): one object per call that is judged, previewed and run.
import type { ContentBlock, Display, ToolErrorCode } from './result.js';
import type { InputSchema } from './schema.js';
import type { ElicitationAnswer, ElicitationSchema } from './elicitation.js';
import type { ToolGroupInfo } from './groups.js';
import type { ModelHandle } from './model-handle.js';

/** What a call does to the world; drives approval. */
export type Effect = 'read' | 'write' | 'execute' | 'destructive';
export const EFFECTS: readonly Effect[] = ['read', 'write', 'execute', 'destructive'];

/** What a call touches, so rules and remembered decisions can match it. */
export interface Subject {
  /** The whole shell script as given. */
  command?: string;
  /** Every simple command of a shell script, normalized (`git push origin main`). */
  commands?: string[];
  /** Absolute paths the call reads or writes. */
  paths?: string[];
  /** URLs the call fetches. */
  urls?: string[];
}

/**
 * How strictly a tool holds one call, strictest first: never run it, ask every time, ask in every
 * mode. Each level is a rung of the policy's ladder (policy/evaluate.ts) and its decision's source.
 */
export type FloorLevel = 'blocked' | 'always-ask' | 'ask-first';

export interface Floor {
  level: FloorLevel;
  /** Why, in words for a person ("rm -rf / deletes the whole system"): the decision's reason says it. */
  reason: string;
}

/** A tool's own verdict on one call, computed from the validated input before policy runs. */
export interface Classification {
  effect: Effect;
  /** Why this effect, in words for a person ("destructive: rm -r build/"). */
  reason?: string;
  /**
   * Set when the tool holds the call to more than its effect, whatever the mode says: never run it
   * (a fork bomb), ask every time (a force push), or ask first (sending mail). What each level
   * overrides, and what still overrides it, is said once: the ladder in policy/evaluate.ts.
   */
  floor?: Floor;
  /**
   * Set when whoever set toolbelt up vouched for this call (a tool the operator declared in the
   * config): it runs without asking in every mode but `ask`. Not a floor, the opposite: it lifts the
   * mode's default for the call, and every rule and floor still decides first. Says who vouched.
   */
  vouchedFor?: string;
  subject?: Subject;
  /**
   * What "always approve" remembers for this call, e.g. the command prefix `npm run test`.
   * When absent, "always" remembers the tool itself.
   */
  rememberPrefix?: string;
  /** Extra lines shown to the approver. */
  warnings?: string[];
}

/** What will change, shown to a person before approving. */
export type Preview =
  | { kind: 'diff'; path: string; diff: string }
  | { kind: 'command'; command: string; cwd: string; classification?: string }
  | { kind: 'url'; url: string; method?: string }
  | { kind: 'text'; text: string };

export type ProgressEvent = { type: 'progress'; progress?: number; total?: number; message?: string };
export type OutputEvent = { type: 'output'; stream: 'stdout' | 'stderr'; chunk: string };
export type FileChangedEvent = {
  type: 'file.changed';
  path: string;
  operation: 'create' | 'write' | 'delete' | 'move' | 'copy' | 'mkdir';
};
export type ToolEmit = ProgressEvent | OutputEvent | FileChangedEvent;

/** The file-system view a tool gets. Implemented by @toolbelt/tools; core only names it. */
export interface Workspace {
  readonly roots: readonly string[];
  readonly cwd: string;
  /** Resolves a path for an access, or throws a ToolError (PERMISSION_DENIED / INVALID_PARAMS). */
  resolve(path: string, access: 'read' | 'write' | 'list' | 'delete'): Promise<string>;
  /** A path as a model should see it: relative to the root when inside one. */
  display(absPath: string): string;
  /**
   * Whether a real path is withheld for an access (secrets, toolbelt's own files), without touching
   * the disk; searches set such hits aside. resolve() still has the last word.
   */
  isProtected?(absPath: string, access: 'read' | 'write' | 'list' | 'delete'): boolean;
  /** The view a call of this tool gets: secrets open per tool, by rules that name it. */
  forTool?(tool: string): Workspace;
  /** toolbelt's own files outside the name rules (config, gateway database, tokens): a sandbox hides them. */
  readonly protectedPaths?: readonly string[];
}

/**
 * What a tool gets when the executor was given no workspace: no roots, and every path (its cwd
 * too) refused with one message, so no tool falls back to the process's directory.
 */
class NoWorkspace implements Workspace {
  readonly roots: readonly string[] = [];
  get cwd(): string {
    throw noWorkspaceError();
  }
  async resolve(): Promise<string> {
    throw noWorkspaceError();
  }
  display(absPath: string): string {
    return absPath;
  }
}

// PERMISSION_DENIED, not INVALID_PARAMS: no other path would do, the tool is off in this toolbelt.
function noWorkspaceError(): ToolError {
  return new ToolError(
    'PERMISSION_DENIED',
    'this tool needs a workspace, and this toolbelt has none: tools that take paths or run commands are off. Ask the user to start toolbelt with --root <dir> (in code: new Executor({ workspace: new WorkspaceGuard({ roots: [dir] }) })).',
  );
}

const NO_WORKSPACE = new NoWorkspace();

export const Workspace = {
  /** The workspace of an executor given none; see NoWorkspace. */
  none: (): Workspace => NO_WORKSPACE,
};

/** A tool's config section as its calls see it: read-only data. */
export type ToolConfig = { readonly [key: string]: unknown };

/** Per-session state a tool may read and update (e.g. which files the agent has read). */
export type SessionState = Map<string, unknown>;

export interface ToolContext {
  callId: string;
  tool: string;
  signal: AbortSignal;
  sessionId: string;
  /** Always set: `Workspace.none()` when the executor has no workspace. */
  workspace: Workspace;
  state: SessionState;
  /** The model in use, when the caller said. */
  model?: string;
  /**
   * A model this tool may ask, where one is present: the agent loop's (runAgent), an MCP client's
   * that offers sampling. Undefined elsewhere (the terminal, the gateway): a tool must do without.
   * An ask ends with the call.
   */
  llm?: ModelHandle;
  /**
   * The config section of the tool's package (a built-in family's own section, an MCP server's
   * entry, `integrations`), as the embedder hands it to the executor; frozen, read-only.
   */
  readonly config?: ToolConfig;
  emit(event: ToolEmit): void;
  /**
   * Asks the person behind the call's front end a question (MCP elicitation, the terminal). Where
   * nobody can answer it is declined; `--yes` accepts the form's defaults. Ends with the call's signal.
   */
  elicit(question: Question): Promise<ElicitationAnswer>;
}

/** What a tool asks: who asks (`MCP server "github"`), the message, and a flat form. */
export interface Question {
  source: string;
  message: string;
  schema: ElicitationSchema;
}

/** What execute returns when it wants more than plain text. */
export interface ToolOutput {
  content?: ContentBlock[] | string;
  display?: Display;
  metadata?: Record<string, unknown>;
  /** Structured result matching the tool's output schema. */
  structured?: unknown;
}

/**
 * One call, prepared by a tool's `prepare`: what it was judged to do, what a person would see, and
 * how it runs. State the three share (a resolved path, the content a diff was made from) lives here,
 * with the call, and never in a map keyed by the input.
 */
export interface Invocation {
  /** The verdict on this call, as a static effect or a full Classification. */
  classification: Effect | Classification;
  /** What a person sees before approving; asked for only when the policy says "ask". */
  preview?(): Preview | undefined | Promise<Preview | undefined>;
  /** Runs the call with the context given to `prepare` (its `signal` is the current attempt's); run again on a retry. */
  run(): Promise<ToolOutput | string> | ToolOutput | string;
}

export interface RetryOptions {
  /** Extra attempts after the first; capped at 3. */
  attempts: number;
  /** First backoff in ms; doubles each attempt, with jitter. */
  baseDelayMs?: number;
}

/** Another tool set's name for this tool, accepted at call time; never shown to a model. */
export interface ToolAlias {
  name: string;
  /** Claims only calls whose input this accepts (a tool whose `command` picks one of ours). */
  when?(input: Record<string, unknown>): boolean;
  /** The input in this tool's words, for shapes beyond renamed parameters (a command as an argv array). */
  input?(input: Record<string, unknown>): Record<string, unknown>;
}

/**
 * What models trained on other agents call this tool and its parameters. Accepted at call time
 * only, so nothing is added to the definitions a model is shown: the call runs, is judged and is
 * logged as this tool, and its result says the name it was called by (`metadata.calledAs`).
 */
export interface ToolAliases {
  names?: readonly (string | ToolAlias)[];
  /** Other spellings of parameters, for any name of the tool: `{ old: 'old_string' }`. camelCase forms need none. */
  params?: Readonly<Record<string, string>>;
  /** Other shapes of input for any name, after the renames (`git_branch {create: true}`). */
  input?(input: Record<string, unknown>): Record<string, unknown>;
}

export interface ToolSpec<I = Record<string, unknown>> {
  name: string;
  title?: string;
  /** Model-facing: what it does, when to use it, what it returns. */
  description: string;
  /** A Zod schema or a plain JSON Schema object. */
  input: InputSchema<I>;
  /** Optional JSON Schema (or Zod) of `structured` output. */
  output?: InputSchema<unknown>;
  category?: string;
  /**
   * Group for hierarchical loading: a name, or the group as its family declares it with its summary
   * (`defineGroup`); defaults to one named after the category (see groups.ts).
   */
  group?: string | ToolGroupInfo;
  /**
   * Static effect, or a verdict computed per call. Required unless the tool has `prepare`, whose
   * invocation carries the verdict instead.
   */
  effect?: Effect | ((input: I, ctx: ToolContext) => Effect | Classification | Promise<Classification>);
  /**
   * With a per-call effect (a function, or `prepare`): what to expect of a call before its input is
   * known, for listings and MCP hints (a static `effect` is its own). Name the ordinary worst case
   * (`write` for a tool that edits, `execute` for one that runs commands), and `read` only when no
   * call does more: MCP clients take readOnlyHint as a promise. Policy never uses it; each call's
   * effect decides.
   */
  usualEffect?: Effect;
  /** Checks beyond the schema, before anything else sees the input; return a message to refuse with INVALID_PARAMS. */
  validate?(input: I, ctx: ToolContext): string | undefined | Promise<string | undefined>;
  preview?(input: I, ctx: ToolContext): Preview | undefined | Promise<Preview | undefined>;
  timeoutMs?: number;
  retry?: RetryOptions;
  /** Cache successful results of read calls for this long. */
  cacheTtlMs?: number;
  /** MCP-style hints beyond the effect. */
  annotations?: { idempotent?: boolean; openWorld?: boolean; destructive?: boolean };
  /** Names and parameter spellings other tool sets use for this tool; see ToolAliases. */
  aliases?: ToolAliases;
  /** Runs the call. Required unless the tool has `prepare`. */
  execute?(input: I, ctx: ToolContext): Promise<ToolOutput | string> | ToolOutput | string;
  /**
   * The call as one object, in place of `effect`, `preview` and `execute`: called once per call,
   * after `validate`, for a tool whose verdict, preview and run share work or state (a resolved
   * path, the content a diff was made from). Throw a ToolError to refuse the call.
   */
  prepare?(input: I, ctx: ToolContext): Invocation | Promise<Invocation>;
  /** Releases processes or connections the tool holds; called when the executor closes. */
  dispose?(): void | Promise<void>;
}

/** A defined tool: the spec with its schema compiled once. */
export interface Tool<I = any> extends ToolSpec<I> {
  readonly jsonSchema: Record<string, unknown>;
  readonly outputJsonSchema?: Record<string, unknown>;
  /** Validates raw input; defaults applied. */
  parse(raw: unknown): { ok: true; value: I } | { ok: false; message: string };
}

export const TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;

export class ToolError extends Error {
  readonly code: ToolErrorCode;
  readonly recoverable: boolean;
  constructor(code: ToolErrorCode, message: string, opts: { recoverable?: boolean; cause?: unknown } = {}) {
    super(message, { cause: opts.cause });
    this.name = 'ToolError';
    this.code = code;
    this.recoverable = opts.recoverable ?? false;
  }
}
