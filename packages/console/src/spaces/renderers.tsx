// Visible tool calls render by tool name: the page maps a name to a component, with a fallback.
import type { ComponentType } from 'preact';
import type { SpaceMessage, ToolInfo } from '@toolbelt/protocol';
import { ChartCall } from './chart.js';
import { ConfirmCall } from './confirm.js';
import { FormCall } from './form-call.js';
import { GenericCall } from './generic.js';

export interface CallProps {
  message: SpaceMessage;
  tool: ToolInfo | undefined;
  output: string | undefined;
  /** Answers a call that waits for a person (a `space` tool); rejects with the gateway's message. */
  answer(result: unknown): Promise<void>;
}

/** Renderers by exact tool name; add one here to give a tool its own look. */
const RENDERERS: Record<string, ComponentType<CallProps>> = {
  confirmAction: ConfirmCall,
  displayChart: ChartCall,
};

/** Names no one registered fall to a pattern, then to a form for a call that waits, then to JSON. */
export function rendererFor(message: SpaceMessage, tool: ToolInfo | undefined): ComponentType<CallProps> {
  const name = message.tool ?? '';
  if (RENDERERS[name]) return RENDERERS[name];
  if (/confirm/i.test(name)) return ConfirmCall;
  if (/chart/i.test(name)) return ChartCall;
  if (tool?.executionType === 'space' && message.status === 'requires_action') return FormCall;
  return GenericCall;
}
