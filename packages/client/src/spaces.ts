// The client's spaces and agents: rooms of people and agents, their messages and events, an agent's
// notes, prompt and think cycles.
import type {
  AgentPrompt,
  CycleAnswer,
  CycleDoneAnswer,
  CycleHeartbeatAnswer,
  MemberKind,
  MessageList,
  NoteKind,
  NoteList,
  PostAnswer,
  Space,
  SpaceMember,
  SpaceMessage,
  StreamedEvent,
  SubmitAnswer,
} from '@toolbelt/protocol';
import { routePath } from '@toolbelt/protocol/routes';
import { cycles, type Cycle, type CycleOptions } from './cycles.js';
import { streamEvents, type EventStreamOptions } from './events.js';
import { ClientBase } from './transport.js';

const NOTES = { goals: 'agentGoals', memories: 'agentMemories', plans: 'agentPlans' } as const;

export class SpacesClient extends ClientBase {
  createSpace(name: string, id?: string): Promise<Space> {
    return this.request('createSpace', { body: id ? { name, id } : { name } });
  }

  async spaces(): Promise<Space[]> {
    return (await this.request('listSpaces')).spaces;
  }

  async members(spaceId: string): Promise<SpaceMember[]> {
    return (await this.request('listMembers', { params: { spaceId } })).members;
  }

  async addMember(spaceId: string, memberId: string, kind: MemberKind): Promise<SpaceMember[]> {
    return (await this.request('addMember', { params: { spaceId }, body: { memberId, kind } })).members;
  }

  async removeMember(spaceId: string, memberId: string): Promise<SpaceMember[]> {
    return (await this.request('removeMember', { params: { spaceId, memberId } })).members;
  }

  /** Posts a text message as `senderId`; every other agent member gets it in its inbox. */
  postMessage(spaceId: string, senderId: string, text: string): Promise<PostAnswer> {
    return this.request('postMessage', { params: { spaceId }, body: { senderId, text } });
  }

  /** Messages oldest first, from offset (default 0). */
  messages(spaceId: string, o: { offset?: number; limit?: number } = {}): Promise<MessageList> {
    return this.request('listMessages', { params: { spaceId }, query: { offset: o.offset, limit: o.limit } });
  }

  /** A person's answer to a space tool's message (status requires_action) in that space. */
  answer(message: Pick<SpaceMessage, 'spaceId' | 'callId' | 'runId'>, result: unknown): Promise<SubmitAnswer> {
    if (!message.callId || !message.runId)
      throw new TypeError('answer() takes a tool call message (one with callId and runId)');
    const body = { callId: message.callId, result: result ?? null, spaceId: message.spaceId };
    return this.request('submitResult', { params: { runId: message.runId }, body });
  }

  /** A space's events (message, tool.started, tool.streaming, tool.done, tool.error); reconnects with Last-Event-ID. */
  spaceEvents(
    spaceId: string,
    o: Omit<EventStreamOptions, 'runId' | 'agentIds' | 'types'> = {},
  ): AsyncGenerator<StreamedEvent> {
    return streamEvents(this, { ...o, path: routePath('spaceEvents', { spaceId }) });
  }

  /** An agent's goals, memories or plans. */
  async notes(agentId: string, kind: NoteKind): Promise<NoteList['notes']> {
    return (await this.request(NOTES[kind], { params: { agentId } })).notes;
  }

  /** The system-prompt fragment for a model driving the agent (the rules, its spaces, notes), made fresh now. */
  agentPrompt(agentId: string): Promise<AgentPrompt> {
    return this.request('agentPrompt', { params: { agentId } });
  }

  /** Takes the agent's unread inbox as one think cycle, waiting up to waitMs for a first message. */
  takeCycle(agentId: string, o: { waitMs?: number; limit?: number; signal?: AbortSignal } = {}): Promise<CycleAnswer> {
    return this.request('takeCycle', {
      params: { agentId },
      query: { wait: o.waitMs, limit: o.limit },
      signal: o.signal,
    });
  }

  finishCycle(agentId: string, cycleId: string): Promise<CycleDoneAnswer> {
    return this.request('finishCycle', { params: { agentId, cycleId } });
  }

  /** Extends a cycle's lease, so a long cycle keeps its messages (the cycles() loop does this for you). */
  heartbeatCycle(agentId: string, cycleId: string): Promise<CycleHeartbeatAnswer> {
    return this.request('heartbeatCycle', { params: { agentId, cycleId } });
  }

  /** One agent: its think cycles as an async iterator, and its notes. */
  agent(agentId: string): {
    id: string;
    cycles(o?: CycleOptions): AsyncGenerator<Cycle>;
    notes(kind: NoteKind): Promise<NoteList['notes']>;
  } {
    return { id: agentId, cycles: (o) => cycles(this, agentId, o), notes: (kind) => this.notes(agentId, kind) };
  }
}
