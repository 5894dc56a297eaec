// Both ways between the classic Tool API and the contract: a classic tool becomes a contract tool
// (so the executor gives it policy, validation, events and logging), and a contract tool gets a
// classic face whose execute runs through an executor. There is one executor; nothing here runs a call.
import { defineTool } from '../define.js';
import type { Executor } from '../executor/executor.js';
import { newCallId } from '../executor/call-input.js';
import { textOf, type ToolResult } from '../result.js';
import {
  ToolError,
  type Classification,
  type Effect,
  type Tool as ContractTool,
  type ToolContext,
  type ToolOutput,
} from '../tool.js';
import { BaseTool } from './base-tool.js';
import type { Tool, ToolConfirmation, ToolExecutionOptions, ToolExecutionResult } from './types.js';

/** The contract tool behind a classic face, so registering a face registers the tool itself. */
const CONTRACT_TOOL: unique symbol = Symbol.for('toolbelt.classic.contractTool');

/** What a classic tool's calls do when it has no getConfirmation: nothing a person must confirm. */
export const DEFAULT_CLASSIC_EFFECT: Effect = 'read';

export function isContractTool(tool: object): tool is ContractTool {
  return typeof (tool as ContractTool).parse === 'function' && 'jsonSchema' in tool && !('definition' in tool);
}

/** A confirmation in the contract's words: `type` is the effect; without one, `required` means a write. */
export function classificationOf(confirmation: ToolConfirmation): Classification {
  const effect = confirmation.type ?? (confirmation.required ? 'write' : 'read');
  return { effect, ...(confirmation.message ? { reason: confirmation.message } : {}) };
}

/** A classic tool as a contract tool; a face gives back the contract tool it wraps. */
export function toContractTool(tool: Tool<any>): ContractTool {
  const wrapped = (tool as { [CONTRACT_TOOL]?: ContractTool })[CONTRACT_TOOL];
  if (wrapped) return wrapped;
  const def = tool.definition;
  const confirm = tool.getConfirmation?.bind(tool);
  return defineTool<any>({
    name: def.name,
    ...(def.displayName ? { title: def.displayName } : {}),
    description: def.description,
    input: tool instanceof BaseTool ? tool.schema : def.parameters,
    validate: (input) => {
      const verdict = tool.validate(input);
      return verdict.valid ? undefined : (verdict.error ?? 'the parameters were refused');
    },
    effect: confirm ? (input) => classificationOf(confirm(input)) : DEFAULT_CLASSIC_EFFECT,
    ...(confirm ? { usualEffect: 'write' as const } : {}),
    execute: async (input, ctx) => toOutput(await tool.execute(input, optionsOf(ctx))),
  });
}

function optionsOf(ctx: ToolContext): ToolExecutionOptions {
  let cwd: string | undefined;
  try {
    cwd = ctx.workspace.cwd;
  } catch {
    cwd = undefined; // no workspace: the tool gets no cwd rather than the process's
  }
  return {
    signal: ctx.signal,
    onOutput: (chunk) => ctx.emit({ type: 'output', stream: 'stdout', chunk }),
    ...(cwd !== undefined ? { cwd } : {}),
  };
}

function toOutput(result: ToolExecutionResult): ToolOutput {
  if (result?.isError) throw new ToolError('EXECUTION_FAILED', result.content);
  return {
    content: result.content,
    ...(result.displayContent !== undefined ? { display: { kind: 'text', text: result.displayContent } } : {}),
    ...(result.metadata ? { metadata: result.metadata } : {}),
  };
}

/** Which executor runs a face's direct calls, given the call's cwd. */
export type FaceRunner = (options: ToolExecutionOptions) => Executor;

/** A contract tool with the classic face; execute runs it through the runner's executor. */
export function classicFace(tool: ContractTool, runner: FaceRunner): Tool<any> {
  return {
    [CONTRACT_TOOL]: tool,
    definition: {
      name: tool.name,
      ...(tool.title ? { displayName: tool.title } : {}),
      description: tool.description,
      parameters: tool.jsonSchema,
    },
    validate: (params) => {
      const parsed = tool.parse(params);
      return parsed.ok ? { valid: true } : { valid: false, error: parsed.message };
    },
    getConfirmation: () => confirmationOf(tool),
    execute: (params, options = {}) => runThrough(runner(options), tool.name, params, options),
  } as Tool<any>;
}

/** Before the input is seen: the static effect, or the tool's ordinary worst case. */
function confirmationOf(tool: ContractTool): ToolConfirmation {
  if (typeof tool.effect === 'string') return { required: tool.effect !== 'read', type: tool.effect };
  const usual = tool.usualEffect ?? 'execute';
  if (usual === 'read') return { required: false, type: 'read' };
  return {
    required: true,
    type: usual,
    message: `what a ${tool.name} call does depends on its input; the policy judges each call`,
  };
}

async function runThrough(
  executor: Executor,
  name: string,
  params: unknown,
  options: ToolExecutionOptions,
): Promise<ToolExecutionResult> {
  const callId = newCallId();
  const { onOutput } = options;
  const stop = onOutput
    ? executor.events.onType('tool.output', (e) => e.callId === callId && onOutput(e.chunk))
    : undefined;
  try {
    const result = await executor.call({
      tool: name,
      input: params,
      callId,
      ...(options.signal ? { signal: options.signal } : {}),
    });
    return toExecutionResult(result);
  } finally {
    stop?.();
  }
}

export function toExecutionResult(result: ToolResult): ToolExecutionResult {
  const text =
    textOf(result) ||
    (result.status === 'error' ? result.error.message : result.status === 'rejected' ? result.rejection.reason : '');
  const display =
    result.display?.kind === 'text'
      ? result.display.text
      : result.display?.kind === 'diff'
        ? result.display.diff
        : undefined;
  return {
    content: text,
    ...(display !== undefined && display !== text ? { displayContent: display } : {}),
    ...(result.status === 'success' || result.status === 'pending' ? {} : { isError: true }),
    metadata: { ...result.metadata, status: result.status, tool: result.tool },
  };
}
