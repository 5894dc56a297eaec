// What the gateway adds to the tool contract: a tool whose calls people see in the agent's active
// space. Core's Tool knows nothing of spaces; the gateway's declared tools carry the field.
import type { Tool, ToolSpec } from '@toolbelt/core';

export interface SpaceVisibility {
  /** Whether the call is shown to people in the active space. */
  readonly visible?: boolean;
}

export type GatewayToolSpec<I = Record<string, unknown>> = ToolSpec<I> & SpaceVisibility;

/** Whether calls of this tool are shown in a space; false for every tool the gateway did not declare visible. */
export function isVisibleTool(tool: Tool): boolean {
  return (tool as Tool & SpaceVisibility).visible === true;
}
