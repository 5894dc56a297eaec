// The gateway's tools as the loop's ToolRunner: listed from GET /api/tools, each call made over HTTP
// for the agent, in the order the model gave (enter_space must come before a visible tool).
import { GatewayError, type GatewayClient, type ToolInfo } from '@toolbelt/client';
import { errorResult, type ToolResult } from '@toolbelt/core';
import type { ToolRunner } from '../loop.js';
import type { ToolCallPart } from '../types.js';

export interface GatewayRunnerOptions {
  client: GatewayClient;
  agentId: string;
  /** The cycle: calls are recorded with it as their run, and late results name it. */
  runId: string;
  /** The model's id, recorded with each call. */
  model: string;
  signal?: AbortSignal;
}

/** Which of the gateway's tools the model is shown: every one, or the named ones plus the spaces' built-ins. */
export function pickTools(all: readonly ToolInfo[], names: readonly string[] | undefined): ToolInfo[] {
  if (!names) return [...all];
  const unknown = names.filter((n) => !all.some((t) => t.name === n));
  if (unknown.length)
    throw new Error(`the gateway has no tool ${unknown.map((n) => `"${n}"`).join(', ')}; GET /api/tools lists them`);
  return all.filter((t) => t.category === 'spaces' || names.includes(t.name));
}

export function gatewayRunner(tools: readonly ToolInfo[], o: GatewayRunnerOptions): ToolRunner {
  return {
    tools: tools.map((t) => ({ name: t.name, description: t.description, jsonSchema: t.inputSchema })),
    async run(calls, context) {
      const results: ToolResult[] = [];
      for (const call of calls) results.push(await callOne(o, call, context));
      return results;
    },
  };
}

async function callOne(o: GatewayRunnerOptions, call: ToolCallPart, context: string | undefined): Promise<ToolResult> {
  try {
    // The model's own call id is not sent: ids repeat across conversations, and the gateway refuses a reused one.
    return await o.client.call(o.runId, call.name, call.input as Record<string, unknown>, {
      agentId: o.agentId,
      model: o.model,
      ...(context ? { context: context.slice(0, 2000) } : {}),
      ...(o.signal ? { signal: o.signal } : {}),
    });
  } catch (err) {
    // A refused request (a 403, a malformed input the body schema caught) is the model's to read; an unreachable gateway ends the cycle.
    if (!(err instanceof GatewayError) || err.status >= 500) throw err;
    return errorResult(call.id, call.name, err.status === 403 ? 'PERMISSION_DENIED' : 'INVALID_PARAMS', err.message);
  }
}
