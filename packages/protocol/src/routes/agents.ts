// An agent's inbox, notes, prompt and think cycles.
import type {
  AckAnswer,
  AckBody,
  AgentPrompt,
  CycleAnswer,
  CycleDoneAnswer,
  CycleHeartbeatAnswer,
  InboxList,
  NoteKind,
  NoteList,
} from '../wire/index.js';
import { io, type RouteSpec } from './spec.js';

const agentId = { agentId: 'the agent' };
const cycle = { agentId: 'the agent', cycleId: 'from POST .../cycles' };

function notes(kind: NoteKind) {
  return {
    method: 'GET',
    path: `/api/agents/:agentId/${kind}`,
    role: 'token',
    summary: `The agent's ${kind} (a token for the agent, or a person sharing a space with it)`,
    params: agentId,
    io: io<never, NoteList>(),
  } as const satisfies RouteSpec;
}

export const AGENT_ROUTES = {
  readInbox: {
    method: 'GET',
    path: '/api/agents/:agentId/inbox',
    role: 'call',
    summary: "The agent's unread inbox, oldest first",
    params: agentId,
    query: {
      after: { type: 'integer', description: 'only messages with a greater id' },
      limit: { type: 'integer', description: '1-1000, default 100' },
      includeAcked: { type: 'boolean', description: 'also read messages' },
    },
    io: io<never, InboxList>(),
  },
  ackInbox: {
    method: 'POST',
    path: '/api/agents/:agentId/inbox/ack',
    role: 'call',
    summary: 'Mark inbox messages read; answers how many were newly marked',
    params: agentId,
    errors: { '400': 'bad ids' },
    io: io<AckBody, AckAnswer>(),
  },
  agentGoals: notes('goals'),
  agentMemories: notes('memories'),
  agentPlans: notes('plans'),
  agentPrompt: {
    method: 'GET',
    path: '/api/agents/:agentId/prompt',
    role: 'token',
    summary:
      'A system-prompt fragment for a model driving the agent: the rules, its spaces, visible tools, goals, memories and plans',
    description:
      'Made fresh on each request from the store; `toolbelt agent` asks for it at the start of every think cycle.',
    params: agentId,
    io: io<never, AgentPrompt>(),
  },
  takeCycle: {
    method: 'POST',
    path: '/api/agents/:agentId/cycles',
    role: 'call',
    summary: 'Start a think cycle: the unread inbox as one batch, oldest first, marked taken',
    description:
      'A message is held by one cycle at a time, across restarts too, until leaseExpiresAt: a cycle not done by then offers its messages again to the next cycle (at least once). With ?wait= the request waits for a first message.',
    params: agentId,
    query: {
      wait: { type: 'integer', description: 'ms to wait for a first message, at most 60000' },
      limit: { type: 'integer', description: '1-1000, default 100' },
    },
    io: io<never, CycleAnswer>(),
  },
  finishCycle: {
    method: 'POST',
    path: '/api/agents/:agentId/cycles/:cycleId/done',
    role: 'call',
    summary: 'Acknowledge the messages a cycle still holds; done again acknowledges 0',
    params: cycle,
    errors: { '404': 'no such cycle of this agent' },
    io: io<never, CycleDoneAnswer>(),
  },
  heartbeatCycle: {
    method: 'POST',
    path: '/api/agents/:agentId/cycles/:cycleId/heartbeat',
    role: 'call',
    summary: "Extend a cycle's lease by the configured lease from now, so a long cycle keeps its messages",
    params: cycle,
    errors: { '404': 'no such cycle of this agent, or it is done' },
    io: io<never, CycleHeartbeatAnswer>(),
  },
} as const satisfies Record<string, RouteSpec>;
