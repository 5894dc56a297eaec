// `load_tools`: the one tool a client started with --groups sees besides its groups' tools. Its
// description lists what is left to load, one line a group, so the model knows what exists.
import {
  errorResult,
  groupOf,
  UnknownGroupError,
  type GroupedView,
  type ToolResult,
  type ToolSource,
} from '@toolbelt/core';
import type { Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';

export const LOAD_TOOLS = 'load_tools';

export function loadToolsDefinition(view: GroupedView): McpTool {
  const lines = view.unloaded().map((g) => `${g.name}: ${g.summary}`);
  return {
    name: LOAD_TOOLS,
    description: `Adds tool groups. Not loaded yet:\n${lines.join('\n') || '(none: every group is loaded)'}`,
    inputSchema: {
      type: 'object',
      properties: { groups: { type: 'array', items: { type: 'string' }, description: 'Names from the list.' } },
      required: ['groups'],
    },
    annotations: { readOnlyHint: true, openWorldHint: false },
  };
}

export function loadTools(view: GroupedView, input: Record<string, unknown>, callId: string): ToolResult {
  const groups = input.groups;
  if (!Array.isArray(groups) || groups.length === 0 || !groups.every((g) => typeof g === 'string')) {
    return errorResult(
      callId,
      LOAD_TOOLS,
      'INVALID_PARAMS',
      'groups must be a non-empty array of group names, e.g. {"groups":["git"]}',
    );
  }
  try {
    const added = view.load(groups as string[]);
    const text = added.length
      ? `Loaded ${groups.join(', ')}: ${added.join(', ')}.`
      : `Already loaded: ${groups.join(', ')}.`;
    return { status: 'success', callId, tool: LOAD_TOOLS, content: [{ type: 'text', text }], durationMs: 0 };
  } catch (err) {
    if (err instanceof UnknownGroupError) return errorResult(callId, LOAD_TOOLS, 'INVALID_PARAMS', err.message);
    throw err;
  }
}

/** For a call to a tool that exists but whose group is not loaded: UNKNOWN_TOOL naming the group. */
export function notLoaded(
  registry: ToolSource,
  view: GroupedView,
  name: string,
  callId: string,
): ToolResult | undefined {
  const tool = registry.get(name);
  if (!tool || view.has(name)) return undefined;
  const group = groupOf(tool);
  return errorResult(
    callId,
    name,
    'UNKNOWN_TOOL',
    `${name} is in tool group "${group}", which is not loaded; call ${LOAD_TOOLS} with {"groups":["${group}"]} first.`,
  );
}
