// Tools declared as JSON in the config become ordinary core tools, so policy, approval,
// logging, metrics and events apply to them like to any other tool.
import { defineTool, type Classification, type Effect, type Tool, type ToolRegistry } from '@toolbelt/core';
import type { DeclaredTool } from '../config.js';
import { httpCall } from './http-call.js';
import { DEFAULT_WAIT_MS, pendingCall, type PendingDeps } from './pending.js';
import type { GatewayToolSpec } from './visible.js';

export interface DeclaredDeps extends PendingDeps {
  fetch?: typeof fetch;
}

/** A tool in the config's `tools` section that cannot be served; the message says which and why. */
export class DeclaredToolError extends Error {
  constructor(
    readonly tool: string,
    problem: string,
  ) {
    super(`config tools: "${tool}"${problem}`);
    this.name = 'DeclaredToolError';
  }
}

/** Grace the executor gives a waiting tool beyond its own timeout, so the tool's message wins. */
const EXECUTOR_GRACE_MS = 5_000;

/**
 * When the config does not say: internal tools and GET requests only read; other requests and
 * external executors may change things; a space tool asks a person, who is the approval.
 */
export function defaultEffect(spec: DeclaredTool): Effect {
  if (spec.effect) return spec.effect as Effect;
  if (spec.executionType === 'internal' || spec.executionType === 'space') return 'read';
  if (spec.execution?.url) return (spec.execution.method ?? 'POST') === 'GET' ? 'read' : 'write';
  return 'write';
}

const VOUCHED =
  'declared in the config by the operator, who vouches for its calls (set effect or requiresApproval in the declaration to have them judged)';

/**
 * A declared tool is the operator's own: unless the declaration says otherwise its calls run in every
 * mode but ask (vouched for). `requiresApproval: true` asks in every mode; an explicit `effect` is
 * judged by the mode like any tool's; `requiresApproval: false` vouches for it even then.
 */
function declaredClassification(spec: DeclaredTool): Classification {
  const effect = defaultEffect(spec);
  if (spec.requiresApproval === true)
    return { effect, floor: { level: 'ask-first', reason: `the config declares ${spec.name} with requiresApproval` } };
  if (spec.requiresApproval === false || spec.effect === undefined) return { effect, vouchedFor: VOUCHED };
  return { effect };
}

function isVisible(spec: DeclaredTool): boolean {
  return spec.visible ?? spec.executionType !== 'internal';
}

export function declaredTool(spec: DeclaredTool, deps: DeclaredDeps): Tool {
  const fetchImpl = deps.fetch ?? fetch;
  const execution = spec.execution;
  if (spec.executionType === 'gateway' && !execution?.url) {
    throw new DeclaredToolError(
      spec.name,
      ': executionType "gateway" makes an HTTP request, so it needs execution.url',
    );
  }
  const waits = spec.executionType !== 'internal' && !execution?.url && !spec.isAsync;
  const timeoutMs = execution?.url
    ? (spec.timeout ?? DEFAULT_WAIT_MS)
    : waits
      ? (spec.timeout ?? DEFAULT_WAIT_MS) + EXECUTOR_GRACE_MS
      : undefined;
  // The spec is typed as the gateway's, so `visible` rides along; isVisibleTool reads it back.
  const toolSpec: GatewayToolSpec = {
    name: spec.name,
    description: spec.description,
    input: spec.inputSchema,
    ...(spec.effect !== undefined && spec.requiresApproval === undefined
      ? { effect: spec.effect as Effect }
      : { effect: () => declaredClassification(spec), usualEffect: defaultEffect(spec) }),
    category: 'declared',
    visible: isVisible(spec),
    ...(timeoutMs ? { timeoutMs } : {}),
    ...(execution?.url
      ? { preview: () => ({ kind: 'url' as const, url: execution.url, method: execution.method ?? 'POST' }) }
      : {}),
    execute(input, ctx) {
      if (spec.executionType === 'internal')
        return {
          content: [{ type: 'json', json: { success: true, args: input } }],
          structured: { success: true, args: input },
        };
      if (execution?.url) return httpCall(spec.name, execution, input, ctx, fetchImpl);
      return pendingCall(spec, input, ctx, deps);
    },
  };
  try {
    return defineTool(toolSpec);
  } catch (err) {
    throw new DeclaredToolError(spec.name, `: ${(err as Error).message}`);
  }
}

/** Adds the config's declared tools to the registry; a name already taken is refused. */
export function registerDeclared(
  registry: ToolRegistry,
  specs: readonly DeclaredTool[],
  deps: DeclaredDeps,
  adjust: (tool: Tool) => Tool | undefined = (tool) => tool,
): Map<string, DeclaredTool> {
  const declared = new Map<string, DeclaredTool>();
  for (const spec of specs) {
    if (registry.has(spec.name) || declared.has(spec.name))
      throw new DeclaredToolError(spec.name, ' is already the name of another tool; rename it');
    // The config's toolSettings: a disabled tool is left out, the others take its overrides.
    const tool = adjust(declaredTool(spec, deps));
    if (!tool) continue;
    registry.register(tool);
    declared.set(spec.name, spec);
  }
  return declared;
}
