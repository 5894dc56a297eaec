// The gateway's spaces on the wire: rooms of people and agents, their messages, agents' notes and the
// bodies and answers of the space routes. Types only.

export type MemberKind = 'person' | 'agent';

export interface Space {
  id: string;
  name: string;
  createdAt: number;
}

export interface SpaceMember {
  spaceId: string;
  memberId: string;
  kind: MemberKind;
  joinedAt: number;
}

/**
 * The status of a message: text messages are complete at once; a visible tool call is running
 * while it runs, requires_action while it waits for a person's answer, then complete or error.
 */
export type SpaceMessageStatus = 'running' | 'requires_action' | 'complete' | 'error';

export interface SpaceMessage {
  /** Grows with every message of the store; a space's messages in order. */
  id: number;
  spaceId: string;
  senderId: string;
  senderKind: MemberKind;
  kind: 'text' | 'tool_call';
  /** kind text. */
  text?: string;
  /** kind tool_call: the call, its tool and input, and (once there) its result or error. */
  callId?: string;
  runId?: string;
  tool?: string;
  input?: unknown;
  result?: unknown;
  error?: string;
  status: SpaceMessageStatus;
  createdAt: number;
  updatedAt: number;
}

/** An agent's goals, memories and plans: each entry an id and its text. */
export type NoteKind = 'goals' | 'memories' | 'plans';

export interface AgentNote {
  id: string;
  text: string;
  updatedAt: number;
}

// Request bodies.

/** POST /api/spaces */
export interface SpaceBody {
  name: string;
  id?: string;
}

/** POST /api/spaces/:spaceId/members */
export interface MemberBody {
  memberId: string;
  kind: MemberKind;
}

/** POST /api/spaces/:spaceId/messages */
export interface MessageBody {
  senderId: string;
  text: string;
}

// Answers.

export interface SpaceList {
  spaces: Space[];
}

export interface MemberList {
  members: SpaceMember[];
}

/** Oldest first from offset; total is how many the space holds. */
export interface MessageList {
  messages: SpaceMessage[];
  total: number;
}

/** POST /api/spaces/:spaceId/messages: the message and the agents whose inbox it reached. */
export interface PostAnswer {
  message: SpaceMessage;
  delivered: string[];
}

export interface NoteList {
  agentId: string;
  kind: NoteKind;
  notes: AgentNote[];
}

/** POST /api/agents/:agentId/cycles/:cycleId/done */
export interface CycleDoneAnswer {
  cycleId: string;
  acknowledged: number;
}

/** GET /api/agents/:agentId/prompt: what a model driving the agent is told, and what it was made from. */
export interface AgentPrompt {
  agentId: string;
  /** A system-prompt fragment: the gateway's rules, then the agent's spaces, visible tools, goals, memories and plans. */
  prompt: string;
  /** The agent's active space, or null when it is in none. */
  activeSpace: string | null;
  spaces: Space[];
  /** The tools whose calls are posted to the active space (they need enter_space first). */
  visibleTools: string[];
  goals: AgentNote[];
  memories: AgentNote[];
  plans: AgentNote[];
}

/** POST /api/agents/:agentId/cycles/:cycleId/heartbeat: the cycle's lease, extended. */
export interface CycleHeartbeatAnswer {
  cycleId: string;
  leaseExpiresAt: number;
}
