// Wiring spaces into a gateway: the built-in tools every agent gets, and the output of visible calls
// streamed into their space.
import type { Executor, Tool, ToolRegistry } from '@toolbelt/core';
import type { Domain } from '../domain/context.js';
import { noteTools } from './note-tools.js';
import { spaceTools } from './space-tools.js';
import type { BuiltinDeps } from './tool-deps.js';

/**
 * The built-in gateway tools, the gateway specification's list; always invisible. A name already
 * taken stops the start. `adjust` applies the config's toolSettings (undefined: disabled).
 */
export function registerBuiltins(
  registry: ToolRegistry,
  deps: BuiltinDeps,
  adjust: (tool: Tool) => Tool | undefined = (tool) => tool,
): void {
  for (const tool of [...spaceTools(deps), ...noteTools(deps)]) {
    if (registry.has(tool.name))
      throw new Error(
        `the gateway's built-in tool "${tool.name}" clashes with another tool of that name; rename the other one`,
      );
    const adjusted = adjust(tool);
    if (adjusted) registry.register(adjusted);
  }
}

/** A visible call's output chunks, as tool.streaming on its space's stream; returns how to stop. */
export function streamVisible(executor: Executor, d: Domain): () => void {
  return executor.events.on((e) => {
    if (e.type !== 'tool.output') return;
    const m = d.visible.get(e.callId);
    if (!m) return;
    d.recorder.publish({
      type: 'space.tool',
      phase: 'streaming',
      ts: e.ts,
      sessionId: m.senderId,
      agentId: m.senderId,
      ...(m.runId ? { runId: m.runId } : {}),
      spaceId: m.spaceId,
      messageId: m.id,
      callId: e.callId,
      tool: e.tool,
      chunk: e.chunk,
    });
  });
}
