// Spaces in the SQLite store: rooms, members, messages, agents' notes and active space, and think
// cycles. Writes go through the store's group commit (one atomic step each), reads straight to the db.
import type Database from 'better-sqlite3';
import type { InboxMessage } from '@toolbelt/protocol';
import type { GroupCommit } from './group-commit.js';
import { toMember, toMessage, toNote, toSpace, toSpaceMessage, type Row } from '../shared/rows.js';
import { CYCLE_SQL, DEFAULT_CYCLE_LEASE_MS } from '../shared/statements.js';
import type { StoreNotice } from '../shared/types.js';
import type {
  AgentNote,
  CycleOutcome,
  NewToolMessage,
  NoteKind,
  PostOutcome,
  Space,
  SpaceMember,
  SpaceMessage,
  SpaceStore,
} from '../shared/space-types.js';

export class SqliteSpaces implements SpaceStore {
  constructor(
    private readonly db: Database.Database,
    private readonly commits: GroupCommit,
    private readonly notify: (n: StoreNotice) => void,
  ) {}

  private write<T>(fn: () => T): Promise<T> {
    return this.commits.write(fn, 'several');
  }

  private get<T = Row>(sql: string, ...args: unknown[]): T | undefined {
    return this.db.prepare(sql).get(...args) as T | undefined;
  }

  private all(sql: string, ...args: unknown[]): Row[] {
    return this.db.prepare(sql).all(...args) as Row[];
  }

  createSpace(s: Space): Promise<boolean> {
    return this.write(
      () =>
        this.db
          .prepare('INSERT INTO spaces (id, name, created_at) VALUES (?, ?, ?) ON CONFLICT (id) DO NOTHING')
          .run(s.id, s.name, s.createdAt).changes === 1,
    );
  }

  async getSpace(spaceId: string): Promise<Space | undefined> {
    const r = this.get('SELECT * FROM spaces WHERE id = ?', spaceId);
    return r ? toSpace(r) : undefined;
  }

  async listSpaces(memberIds?: readonly string[]): Promise<Space[]> {
    if (!memberIds) return this.all('SELECT * FROM spaces ORDER BY seq').map(toSpace);
    if (!memberIds.length) return [];
    const marks = memberIds.map(() => '?').join(', ');
    const sql = `SELECT * FROM spaces WHERE id IN (SELECT space_id FROM space_members WHERE member_id IN (${marks})) ORDER BY seq`;
    return this.all(sql, ...memberIds).map(toSpace);
  }

  addMember(m: SpaceMember): Promise<boolean> {
    return this.write(() => {
      if (!this.get('SELECT 1 FROM spaces WHERE id = ?', m.spaceId)) return false;
      const sql = `INSERT INTO space_members (space_id, member_id, kind, joined_at) VALUES (?, ?, ?, ?)
        ON CONFLICT (space_id, member_id) DO UPDATE SET kind = excluded.kind`;
      this.db.prepare(sql).run(m.spaceId, m.memberId, m.kind, m.joinedAt);
      return true;
    });
  }

  removeMember(spaceId: string, memberId: string): Promise<boolean> {
    return this.write(() => {
      const gone =
        this.db.prepare('DELETE FROM space_members WHERE space_id = ? AND member_id = ?').run(spaceId, memberId)
          .changes === 1;
      if (gone)
        this.db
          .prepare('UPDATE agent_state SET active_space = NULL WHERE agent_id = ? AND active_space = ?')
          .run(memberId, spaceId);
      return gone;
    });
  }

  async getMember(spaceId: string, memberId: string): Promise<SpaceMember | undefined> {
    const r = this.get('SELECT * FROM space_members WHERE space_id = ? AND member_id = ?', spaceId, memberId);
    return r ? toMember(r) : undefined;
  }

  async listMembers(spaceId: string): Promise<SpaceMember[]> {
    return this.all('SELECT * FROM space_members WHERE space_id = ? ORDER BY joined_at, member_id', spaceId).map(
      toMember,
    );
  }

  async shareSpace(a: string, b: string): Promise<boolean> {
    const sql =
      'SELECT 1 FROM space_members x JOIN space_members y ON x.space_id = y.space_id WHERE x.member_id = ? AND y.member_id = ? LIMIT 1';
    return this.get(sql, a, b) !== undefined;
  }

  async postText(spaceId: string, senderId: string, text: string, now: number): Promise<PostOutcome> {
    const out = await this.write((): PostOutcome => {
      if (!this.get('SELECT 1 FROM spaces WHERE id = ?', spaceId)) return { ok: false, reason: 'no_space' };
      const sender = this.get('SELECT kind FROM space_members WHERE space_id = ? AND member_id = ?', spaceId, senderId);
      if (!sender) return { ok: false, reason: 'not_member' };
      const sql = `INSERT INTO space_messages (space_id, sender_id, sender_kind, kind, text, status, created_at, updated_at)
        VALUES (?, ?, ?, 'text', ?, 'complete', ?, ?) RETURNING *`;
      const message = toSpaceMessage(this.get(sql, spaceId, senderId, sender.kind, text, now, now)!);
      const agents = this.all(
        `SELECT member_id FROM space_members WHERE space_id = ? AND kind = 'agent' AND member_id != ?`,
        spaceId,
        senderId,
      );
      const insert = this.db.prepare(
        `INSERT INTO inbox (agent_id, kind, space_id, message_id, payload, created_at) VALUES (?, 'message', ?, ?, ?, ?) RETURNING *`,
      );
      const payload = JSON.stringify(message);
      const inbox = agents.map((a) => toMessage(insert.get(a.member_id, spaceId, message.id, payload, now) as Row));
      return { ok: true, message, inbox };
    });
    if (out.ok) for (const m of out.inbox) this.notify({ kind: 'inbox.added', agentId: m.agentId });
    return out;
  }

  postToolCall(m: NewToolMessage): Promise<SpaceMessage> {
    return this.write(() => {
      const sql = `INSERT INTO space_messages (space_id, sender_id, sender_kind, kind, call_id, run_id, tool, input, status, created_at, updated_at)
        VALUES (?, ?, 'agent', 'tool_call', ?, ?, ?, ?, 'running', ?, ?) RETURNING *`;
      return toSpaceMessage(
        this.get(
          sql,
          m.spaceId,
          m.senderId,
          m.callId,
          m.runId,
          m.tool,
          JSON.stringify(m.input ?? null),
          m.createdAt,
          m.createdAt,
        )!,
      );
    });
  }

  requireAction(callId: string, now: number): Promise<SpaceMessage | undefined> {
    return this.write(() => {
      const sql = `UPDATE space_messages SET status = 'requires_action', updated_at = ? WHERE call_id = ? AND status = 'running' RETURNING *`;
      const r = this.get(sql, now, callId);
      return r ? toSpaceMessage(r) : undefined;
    });
  }

  async messageOfCall(callId: string): Promise<SpaceMessage | undefined> {
    const r = this.get('SELECT * FROM space_messages WHERE call_id = ?', callId);
    return r ? toSpaceMessage(r) : undefined;
  }

  async listMessages(
    spaceId: string,
    offset: number,
    limit: number,
  ): Promise<{ messages: SpaceMessage[]; total: number }> {
    const total = this.get<{ n: number }>('SELECT COUNT(*) AS n FROM space_messages WHERE space_id = ?', spaceId)!.n;
    const rows = this.all(
      'SELECT * FROM space_messages WHERE space_id = ? ORDER BY id LIMIT ? OFFSET ?',
      spaceId,
      limit,
      offset,
    );
    return { messages: rows.map(toSpaceMessage), total };
  }

  async activeSpace(agentId: string): Promise<string | undefined> {
    return this.get('SELECT active_space FROM agent_state WHERE agent_id = ?', agentId)?.active_space ?? undefined;
  }

  setActiveSpace(agentId: string, spaceId: string | undefined, now: number): Promise<void> {
    const sql = `INSERT INTO agent_state (agent_id, active_space, updated_at) VALUES (?, ?, ?)
      ON CONFLICT (agent_id) DO UPDATE SET active_space = excluded.active_space, updated_at = excluded.updated_at`;
    return this.write(() => void this.db.prepare(sql).run(agentId, spaceId ?? null, now));
  }

  setNotes(
    agentId: string,
    kind: NoteKind,
    notes: readonly { id: string; text: string }[],
    now: number,
  ): Promise<AgentNote[]> {
    return this.write(() => {
      // seq keeps first-set order: an update keeps its entry's place.
      const sql = `INSERT INTO agent_notes (agent_id, kind, id, text, seq, updated_at)
        VALUES (?, ?, ?, ?, (SELECT COALESCE(MAX(seq), 0) + 1 FROM agent_notes WHERE agent_id = ? AND kind = ?), ?)
        ON CONFLICT (agent_id, kind, id) DO UPDATE SET text = excluded.text, updated_at = excluded.updated_at`;
      const stmt = this.db.prepare(sql);
      for (const n of notes) stmt.run(agentId, kind, n.id, n.text, agentId, kind, now);
      return notes.map((n) => ({ id: n.id, text: n.text, updatedAt: now }));
    });
  }

  deleteNotes(agentId: string, kind: NoteKind, ids: readonly string[]): Promise<string[]> {
    return this.write(() => {
      const stmt = this.db.prepare('DELETE FROM agent_notes WHERE agent_id = ? AND kind = ? AND id = ?');
      return ids.filter((id) => stmt.run(agentId, kind, id).changes === 1);
    });
  }

  async listNotes(agentId: string, kind: NoteKind): Promise<AgentNote[]> {
    return this.all('SELECT * FROM agent_notes WHERE agent_id = ? AND kind = ? ORDER BY seq', agentId, kind).map(
      toNote,
    );
  }

  takeCycle(
    agentId: string,
    cycleId: string,
    limit: number,
    now: number,
    leaseUntil = now + DEFAULT_CYCLE_LEASE_MS,
  ): Promise<InboxMessage[]> {
    return this.write(() => {
      const rows = this.all(
        `SELECT * FROM inbox WHERE ${CYCLE_SQL.free} ORDER BY id LIMIT ?`,
        agentId,
        agentId,
        now,
        limit,
      );
      if (!rows.length) return [];
      this.db.prepare(CYCLE_SQL.insert).run(cycleId, agentId, now, leaseUntil);
      const take = this.db.prepare('UPDATE inbox SET cycle_id = ? WHERE id = ?');
      for (const r of rows) take.run(cycleId, r.id);
      return rows.map((r) => toMessage({ ...r, cycle_id: cycleId }));
    });
  }

  finishCycle(agentId: string, cycleId: string, now: number): Promise<CycleOutcome> {
    return this.write((): CycleOutcome => {
      if (this.db.prepare(CYCLE_SQL.done).run(now, cycleId, agentId).changes !== 1)
        return { ok: false, reason: 'not_found' };
      return { ok: true, acknowledged: this.db.prepare(CYCLE_SQL.ack).run(now, cycleId).changes };
    });
  }

  extendCycle(agentId: string, cycleId: string, leaseUntil: number): Promise<boolean> {
    return this.write(() => this.db.prepare(CYCLE_SQL.extend).run(leaseUntil, cycleId, agentId).changes === 1);
  }
}
