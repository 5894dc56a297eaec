// The agent that lives in the gateway: think cycle after think cycle, take the inbox as one batch,
// show it to the model with the gateway's prompt (rules, spaces, goals, memories, plans), let the
// model call the gateway's tools, then end the cycle. What the model saves with set_memories is kept
// by the gateway; the last few cycles' conversation (its consciousness) is kept here.
import type { Cycle, GatewayClient } from '@toolbelt/client';
import { runLoop, type AgentRun } from '../loop.js';
import type { AgentEvent, AgentMessage, ModelProvider } from '../types.js';
import { inboxText } from './inbox-text.js';
import { gatewayRunner, pickTools } from './runner.js';

export interface GatewayAgentOptions {
  client: GatewayClient;
  agentId: string;
  model: ModelProvider;
  /** Added after the gateway's prompt. */
  system?: string;
  /** Tools the model gets besides the spaces' built-ins (default: every tool of the gateway). */
  tools?: readonly string[];
  /** Model turns per cycle at most (default 20). */
  maxTurns?: number;
  /** How many earlier cycles' conversation the model sees again (default 3; 0: none). */
  rememberCycles?: number;
  signal?: AbortSignal;
  onEvent?: (event: AgentEvent) => void;
}

export interface GatewayAgent extends GatewayAgentOptions {
  /** The conversations of the last cycles, oldest first. */
  consciousness: AgentMessage[][];
}

export interface CycleRun {
  cycleId: string;
  /** How many inbox messages the cycle took. */
  inbox: number;
  /** The model called skip. */
  skipped: boolean;
  run: AgentRun;
}

/** One think cycle: the prompt fresh from the gateway, the inbox as the user's turn, the loop, then done. */
export async function runCycle(agent: GatewayAgent, cycle: Cycle): Promise<CycleRun> {
  const { client, agentId, model } = agent;
  const [prompt, all] = await Promise.all([client.agentPrompt(agentId), client.tools()]);
  const runner = gatewayRunner(pickTools(all, agent.tools), {
    client,
    agentId,
    runId: cycle.id,
    model: model.model,
    ...signalOf(agent),
  });
  const user: AgentMessage = { role: 'user', content: inboxText(cycle.id, cycle.messages) };
  let skipped = false;
  const run = await runLoop({
    runner,
    model,
    messages: [...agent.consciousness.flat(), user],
    system: [prompt.prompt, agent.system].filter(Boolean).join('\n\n'),
    ...(agent.maxTurns ? { maxTurns: agent.maxTurns } : {}),
    ...signalOf(agent),
    ...(agent.onEvent ? { onEvent: agent.onEvent } : {}),
    task: `think cycle ${cycle.id} of agent ${agentId}`,
    endsRun: (call, result) => (skipped ||= call.name === 'skip' && result.status === 'success'),
  });
  remember(agent, run.messages.slice(agent.consciousness.flat().length));
  await cycle.done();
  return { cycleId: cycle.id, inbox: cycle.messages.length, skipped, run };
}

function signalOf(agent: GatewayAgentOptions): { signal?: AbortSignal } {
  return agent.signal ? { signal: agent.signal } : {};
}

function remember(agent: GatewayAgent, conversation: AgentMessage[]): void {
  agent.consciousness.push(conversation);
  const keep = agent.rememberCycles ?? 3;
  while (agent.consciousness.length > keep) agent.consciousness.shift();
}

/**
 * Runs the agent's think cycles until `cycles` are done (default: until the signal aborts). Each waits
 * for the inbox (`waitMs` per request, default 25 s) and is acknowledged before the next is taken.
 * Once started, a gateway that is briefly away is retried (the SDK's cycles()); at the start it is not.
 */
export async function runGatewayAgent(
  opts: GatewayAgentOptions & { cycles?: number; waitMs?: number; onCycle?: (run: CycleRun) => void },
): Promise<CycleRun[]> {
  const agent: GatewayAgent = { ...opts, consciousness: [] };
  const runs: CycleRun[] = [];
  if (opts.cycles === 0) return runs;
  // Fails at once on a gateway that cannot be reached, a bad token or another agent's, before any wait.
  await opts.client.agentPrompt(opts.agentId);
  const source = opts.client.agent(opts.agentId).cycles({ waitMs: opts.waitMs ?? 25_000, ...signalOf(opts) });
  for await (const cycle of source) {
    const run = await runCycle(agent, cycle);
    runs.push(run);
    opts.onCycle?.(run);
    if (run.run.stop === 'aborted' || runs.length === opts.cycles) {
      await cycle.done();
      break;
    }
  }
  return runs;
}
