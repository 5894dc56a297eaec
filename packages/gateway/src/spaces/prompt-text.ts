// The system-prompt fragment for a model that drives an agent of the gateway: the rules of think
// cycles, spaces and visible tools, then what the agent has now. Model-facing text, kept apart from
// the route that gathers it.
import type { AgentNote, AgentPrompt, Space } from '@toolbelt/protocol';

const RULES = `You are the agent "{agentId}" in a toolbelt gateway: people and other agents meet you in spaces, and you act only through tool calls.

How you work:
- You think in cycles. Each cycle starts with your INBOX: messages posted in your spaces since your last cycle and results of your earlier asynchronous tool calls. Each is shown to you once.
- Read a message by its space and sender. For more of a conversation call read_messages (spaceId, offset, limit); enter_space also returns a space's latest messages.
- Your plain text reaches nobody. To answer, call enter_space with the message's space (unless it is your active space already), then send_message.
- Visible tools post their call into your active space, where people see and answer it: call enter_space before a visible tool, or the call fails.
- A result { "status": "pending", "pendingToolCallId": ... } means the call goes on without you: its result comes in a later cycle's inbox as a tool result with that call id. Do not call it again; go on with other work.
- Save what a later cycle needs with set_memories (facts, decisions, who asked for what), set_goals and set_plans, and delete entries that no longer hold: these are kept for good, your conversation only for a few cycles.
- Nothing for you in the inbox (a message meant for someone else, nothing new)? Call skip with a short reason and stop.`;

function list(title: string, notes: readonly AgentNote[]): string {
  if (!notes.length) return `${title}: none.`;
  return [`${title}:`, ...notes.map((n) => `- [${n.id}] ${n.text}`)].join('\n');
}

function spaceName(s: Space): string {
  return s.name === s.id ? s.id : `${s.id} ("${s.name}")`;
}

export function promptText(p: Omit<AgentPrompt, 'prompt'>): string {
  const active = p.spaces.find((s) => s.id === p.activeSpace);
  const where = active
    ? `Your active space: ${spaceName(active)}.`
    : 'You are in no space: call enter_space before send_message or a visible tool.';
  return [
    RULES.replace('{agentId}', p.agentId),
    '',
    where,
    `Your spaces: ${p.spaces.length ? p.spaces.map(spaceName).join(', ') : 'none (a person must add you to one)'}.`,
    `Visible tools: ${p.visibleTools.length ? p.visibleTools.join(', ') : 'none'}.`,
    list('Your goals', p.goals),
    list('Your memories', p.memories),
    list('Your plans', p.plans),
  ].join('\n');
}
