// The shapes of the answers about spaces, agents' notes, prompts and think cycles (their TypeScript
// form: wire/spaces.ts).
import { z } from 'zod';
import { named } from './named.js';

const int = z.number().int();
const memberKind = z.enum(['person', 'agent']);

export const space = named('Space', z.object({ id: z.string(), name: z.string(), createdAt: int }));

export const spaceMember = named(
  'SpaceMember',
  z.object({ spaceId: z.string(), memberId: z.string(), kind: memberKind, joinedAt: int }),
);

export const spaceMessage = named(
  'SpaceMessage',
  z.object({
    id: int,
    spaceId: z.string(),
    senderId: z.string(),
    senderKind: memberKind,
    kind: z.enum(['text', 'tool_call']),
    text: z.string().optional(),
    callId: z.string().optional(),
    runId: z.string().optional(),
    tool: z.string().optional(),
    input: z.unknown().optional(),
    result: z.unknown().optional(),
    error: z.string().optional(),
    status: z.enum(['running', 'requires_action', 'complete', 'error']),
    createdAt: int,
    updatedAt: int,
  }),
  'A text message (complete at once) or a visible tool call: running, requires_action (a space tool waiting for a person), complete or error.',
);

export const agentNote = named('AgentNote', z.object({ id: z.string(), text: z.string(), updatedAt: int }));

export const spaceList = z.object({ spaces: z.array(space) });
export const memberList = z.object({ members: z.array(spaceMember) });
export const messageList = z.object({ messages: z.array(spaceMessage), total: int });
export const postAnswer = z.object({ message: spaceMessage, delivered: z.array(z.string()) });

export function noteList(kind: 'goals' | 'memories' | 'plans') {
  return z.object({ agentId: z.string(), kind: z.literal(kind), notes: z.array(agentNote) });
}

export const agentPrompt = named(
  'AgentPrompt',
  z.object({
    agentId: z.string(),
    prompt: z.string(),
    activeSpace: z.string().nullable(),
    spaces: z.array(space),
    visibleTools: z.array(z.string()),
    goals: z.array(agentNote),
    memories: z.array(agentNote),
    plans: z.array(agentNote),
  }),
  'prompt is the system-prompt fragment; the other fields are what it was made from',
);

export const cycleDoneAnswer = z.object({ cycleId: z.string(), acknowledged: int });
export const cycleHeartbeatAnswer = z.object({ cycleId: z.string(), leaseExpiresAt: int });
