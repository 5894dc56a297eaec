// The store's half for spaces: rooms, their members and messages, each agent's active space,
// goals, memories and plans, and think cycles over the inbox. Every method that changes more than
// one row does it in one atomic step, so a crash leaves each message delivered or not, never half.
import type {
  AgentNote,
  InboxMessage,
  MemberKind,
  NoteKind,
  Space,
  SpaceMember,
  SpaceMessage,
  SpaceMessageStatus,
} from '@toolbelt/protocol';

export type { AgentNote, MemberKind, NoteKind, Space, SpaceMember, SpaceMessage, SpaceMessageStatus };

export interface NewToolMessage {
  spaceId: string;
  senderId: string;
  callId: string;
  runId: string;
  tool: string;
  input: unknown;
  createdAt: number;
}

export type PostOutcome =
  | { ok: true; message: SpaceMessage; inbox: InboxMessage[] }
  | { ok: false; reason: 'no_space' | 'not_member'; kind?: MemberKind };

export type CycleOutcome = { ok: true; acknowledged: number } | { ok: false; reason: 'not_found' };

export interface SpaceStore {
  /** False when the id is taken. */
  createSpace(space: Space): Promise<boolean>;
  getSpace(spaceId: string): Promise<Space | undefined>;
  /** All spaces, or only those `memberIds` belong to. */
  listSpaces(memberIds?: readonly string[]): Promise<Space[]>;
  /** Adds or updates a member; false when the space does not exist. */
  addMember(member: SpaceMember): Promise<boolean>;
  /** False when it was not a member. Clears the agent's active space if it was this one. */
  removeMember(spaceId: string, memberId: string): Promise<boolean>;
  getMember(spaceId: string, memberId: string): Promise<SpaceMember | undefined>;
  listMembers(spaceId: string): Promise<SpaceMember[]>;
  /** Whether the two share a space. */
  shareSpace(a: string, b: string): Promise<boolean>;

  /**
   * Posts a text message from a member, and puts it in the inbox of every agent member except the
   * sender, atomically.
   */
  postText(spaceId: string, senderId: string, text: string, now: number): Promise<PostOutcome>;
  /** Posts a visible tool call as a running message of its agent. */
  postToolCall(m: NewToolMessage): Promise<SpaceMessage>;
  /** running -> requires_action: the call waits for a person's answer. */
  requireAction(callId: string, now: number): Promise<SpaceMessage | undefined>;
  messageOfCall(callId: string): Promise<SpaceMessage | undefined>;
  listMessages(spaceId: string, offset: number, limit: number): Promise<{ messages: SpaceMessage[]; total: number }>;

  /** The agent's active space, if any. */
  activeSpace(agentId: string): Promise<string | undefined>;
  setActiveSpace(agentId: string, spaceId: string | undefined, now: number): Promise<void>;

  /** Creates or replaces entries by id. */
  setNotes(
    agentId: string,
    kind: NoteKind,
    notes: readonly { id: string; text: string }[],
    now: number,
  ): Promise<AgentNote[]>;
  /** Returns the ids that were there and are now gone. */
  deleteNotes(agentId: string, kind: NoteKind, ids: readonly string[]): Promise<string[]>;
  listNotes(agentId: string, kind: NoteKind): Promise<AgentNote[]>;

  /**
   * Marks the agent's unread inbox that no live cycle holds (oldest first, at most `limit`) as taken
   * by a new cycle leased until `leaseUntil`; messages of a cycle whose lease ran out undone are taken again.
   */
  takeCycle(agentId: string, cycleId: string, limit: number, now: number, leaseUntil?: number): Promise<InboxMessage[]>;
  /** Acknowledges every message the cycle still holds; done again acknowledges nothing and is no error. */
  finishCycle(agentId: string, cycleId: string, now: number): Promise<CycleOutcome>;
  /** Extends the lease of a cycle not yet done; false when there is none. */
  extendCycle(agentId: string, cycleId: string, leaseUntil: number): Promise<boolean>;
}
