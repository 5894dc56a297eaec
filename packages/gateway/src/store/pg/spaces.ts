// Spaces in the PostgreSQL store. Steps that read and then write take row locks (or skip rows
// another instance holds), so two instances never hand out the same inbox message twice.
import type { InboxMessage } from '@toolbelt/protocol';
import type { PgDb } from './db.js';
import { toMember, toMessage, toNote, toSpace, toSpaceMessage } from '../shared/rows.js';
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

export class PgSpaces implements SpaceStore {
  constructor(
    private readonly db: PgDb,
    private readonly notify: (n: StoreNotice) => void,
  ) {}

  async createSpace(s: Space): Promise<boolean> {
    return (
      (await this.db.run(
        'INSERT INTO spaces (id, name, created_at) VALUES (?, ?, ?) ON CONFLICT (id) DO NOTHING',
        s.id,
        s.name,
        s.createdAt,
      )) === 1
    );
  }

  async getSpace(spaceId: string): Promise<Space | undefined> {
    const r = await this.db.get('SELECT * FROM spaces WHERE id = ?', spaceId);
    return r ? toSpace(r) : undefined;
  }

  async listSpaces(memberIds?: readonly string[]): Promise<Space[]> {
    if (!memberIds) return (await this.db.all('SELECT * FROM spaces ORDER BY seq')).map(toSpace);
    if (!memberIds.length) return [];
    const sql =
      'SELECT * FROM spaces WHERE id IN (SELECT space_id FROM space_members WHERE member_id = ANY(?::text[])) ORDER BY seq';
    return (await this.db.all(sql, [...memberIds])).map(toSpace);
  }

  async addMember(m: SpaceMember): Promise<boolean> {
    // One statement: a space deleted meanwhile cannot gain a member.
    const sql = `INSERT INTO space_members (space_id, member_id, kind, joined_at) SELECT id, ?, ?, ? FROM spaces WHERE id = ?
      ON CONFLICT (space_id, member_id) DO UPDATE SET kind = excluded.kind`;
    return (await this.db.run(sql, m.memberId, m.kind, m.joinedAt, m.spaceId)) === 1;
  }

  removeMember(spaceId: string, memberId: string): Promise<boolean> {
    return this.db.tx(async (tx) => {
      const gone =
        (await tx.run('DELETE FROM space_members WHERE space_id = ? AND member_id = ?', spaceId, memberId)) === 1;
      if (gone)
        await tx.run(
          'UPDATE agent_state SET active_space = NULL WHERE agent_id = ? AND active_space = ?',
          memberId,
          spaceId,
        );
      return gone;
    });
  }

  async getMember(spaceId: string, memberId: string): Promise<SpaceMember | undefined> {
    const r = await this.db.get('SELECT * FROM space_members WHERE space_id = ? AND member_id = ?', spaceId, memberId);
    return r ? toMember(r) : undefined;
  }

  async listMembers(spaceId: string): Promise<SpaceMember[]> {
    return (
      await this.db.all('SELECT * FROM space_members WHERE space_id = ? ORDER BY joined_at, member_id', spaceId)
    ).map(toMember);
  }

  async shareSpace(a: string, b: string): Promise<boolean> {
    const sql =
      'SELECT 1 FROM space_members x JOIN space_members y ON x.space_id = y.space_id WHERE x.member_id = ? AND y.member_id = ? LIMIT 1';
    return (await this.db.get(sql, a, b)) !== undefined;
  }

  async postText(spaceId: string, senderId: string, text: string, now: number): Promise<PostOutcome> {
    let notices: StoreNotice[] = [];
    const out = await this.db.tx(async (tx): Promise<PostOutcome> => {
      // The space row locked: members cannot change while the message goes out to them.
      if (!(await tx.get('SELECT 1 FROM spaces WHERE id = ? FOR SHARE', spaceId)))
        return { ok: false, reason: 'no_space' };
      const sender = await tx.get(
        'SELECT kind FROM space_members WHERE space_id = ? AND member_id = ?',
        spaceId,
        senderId,
      );
      if (!sender) return { ok: false, reason: 'not_member' };
      const sql = `INSERT INTO space_messages (space_id, sender_id, sender_kind, kind, text, status, created_at, updated_at)
        VALUES (?, ?, ?, 'text', ?, 'complete', ?, ?) RETURNING *`;
      const message = toSpaceMessage((await tx.get(sql, spaceId, senderId, sender.kind, text, now, now))!);
      const rows = await tx.all(
        `INSERT INTO inbox (agent_id, kind, space_id, message_id, payload, created_at)
          SELECT member_id, 'message', ?, ?, ?, ? FROM space_members WHERE space_id = ? AND kind = 'agent' AND member_id != ? ORDER BY joined_at, member_id
          RETURNING *`,
        spaceId,
        message.id,
        JSON.stringify(message),
        now,
        spaceId,
        senderId,
      );
      const inbox = rows.map(toMessage).sort((x, y) => x.id - y.id);
      notices = inbox.map((m) => ({ kind: 'inbox.added', agentId: m.agentId }));
      await tx.tell(notices);
      return { ok: true, message, inbox };
    });
    for (const n of notices) this.notify(n);
    return out;
  }

  async postToolCall(m: NewToolMessage): Promise<SpaceMessage> {
    const sql = `INSERT INTO space_messages (space_id, sender_id, sender_kind, kind, call_id, run_id, tool, input, status, created_at, updated_at)
      VALUES (?, ?, 'agent', 'tool_call', ?, ?, ?, ?, 'running', ?, ?) RETURNING *`;
    return toSpaceMessage(
      (await this.db.get(
        sql,
        m.spaceId,
        m.senderId,
        m.callId,
        m.runId,
        m.tool,
        JSON.stringify(m.input ?? null),
        m.createdAt,
        m.createdAt,
      ))!,
    );
  }

  async requireAction(callId: string, now: number): Promise<SpaceMessage | undefined> {
    const sql = `UPDATE space_messages SET status = 'requires_action', updated_at = ? WHERE call_id = ? AND status = 'running' RETURNING *`;
    const r = await this.db.get(sql, now, callId);
    return r ? toSpaceMessage(r) : undefined;
  }

  async messageOfCall(callId: string): Promise<SpaceMessage | undefined> {
    const r = await this.db.get('SELECT * FROM space_messages WHERE call_id = ?', callId);
    return r ? toSpaceMessage(r) : undefined;
  }

  async listMessages(
    spaceId: string,
    offset: number,
    limit: number,
  ): Promise<{ messages: SpaceMessage[]; total: number }> {
    const total = (await this.db.get('SELECT COUNT(*) AS n FROM space_messages WHERE space_id = ?', spaceId))!
      .n as number;
    const rows = await this.db.all(
      'SELECT * FROM space_messages WHERE space_id = ? ORDER BY id LIMIT ? OFFSET ?',
      spaceId,
      limit,
      offset,
    );
    return { messages: rows.map(toSpaceMessage), total };
  }

  async activeSpace(agentId: string): Promise<string | undefined> {
    return (
      (await this.db.get('SELECT active_space FROM agent_state WHERE agent_id = ?', agentId))?.active_space ?? undefined
    );
  }

  async setActiveSpace(agentId: string, spaceId: string | undefined, now: number): Promise<void> {
    const sql = `INSERT INTO agent_state (agent_id, active_space, updated_at) VALUES (?, ?, ?)
      ON CONFLICT (agent_id) DO UPDATE SET active_space = excluded.active_space, updated_at = excluded.updated_at`;
    await this.db.run(sql, agentId, spaceId ?? null, now);
  }

  setNotes(
    agentId: string,
    kind: NoteKind,
    notes: readonly { id: string; text: string }[],
    now: number,
  ): Promise<AgentNote[]> {
    return this.db.tx(async (tx) => {
      // seq keeps first-set order: an update keeps its entry's place.
      const sql = `INSERT INTO agent_notes (agent_id, kind, id, text, seq, updated_at)
        VALUES (?, ?, ?, ?, (SELECT COALESCE(MAX(seq), 0) + 1 FROM agent_notes WHERE agent_id = ? AND kind = ?), ?)
        ON CONFLICT (agent_id, kind, id) DO UPDATE SET text = excluded.text, updated_at = excluded.updated_at`;
      for (const n of notes) await tx.run(sql, agentId, kind, n.id, n.text, agentId, kind, now);
      return notes.map((n) => ({ id: n.id, text: n.text, updatedAt: now }));
    });
  }

  async deleteNotes(agentId: string, kind: NoteKind, ids: readonly string[]): Promise<string[]> {
    const rows = await this.db.all(
      'DELETE FROM agent_notes WHERE agent_id = ? AND kind = ? AND id = ANY(?::text[]) RETURNING id',
      agentId,
      kind,
      [...ids],
    );
    const gone = new Set(rows.map((r) => r.id as string));
    return ids.filter((id) => gone.has(id));
  }

  async listNotes(agentId: string, kind: NoteKind): Promise<AgentNote[]> {
    return (
      await this.db.all('SELECT * FROM agent_notes WHERE agent_id = ? AND kind = ? ORDER BY seq', agentId, kind)
    ).map(toNote);
  }

  takeCycle(
    agentId: string,
    cycleId: string,
    limit: number,
    now: number,
    leaseUntil = now + DEFAULT_CYCLE_LEASE_MS,
  ): Promise<InboxMessage[]> {
    return this.db.tx(async (tx) => {
      // Rows another instance is taking right now are skipped, not waited for and taken twice.
      const rows = await tx.all(
        `UPDATE inbox SET cycle_id = ? WHERE id IN (SELECT id FROM inbox WHERE ${CYCLE_SQL.free} ORDER BY id LIMIT ? FOR UPDATE SKIP LOCKED) RETURNING *`,
        cycleId,
        agentId,
        agentId,
        now,
        limit,
      );
      if (!rows.length) return [];
      await tx.run(CYCLE_SQL.insert, cycleId, agentId, now, leaseUntil);
      return rows.map(toMessage).sort((a, b) => a.id - b.id);
    });
  }

  finishCycle(agentId: string, cycleId: string, now: number): Promise<CycleOutcome> {
    return this.db.tx(async (tx): Promise<CycleOutcome> => {
      if ((await tx.run(CYCLE_SQL.done, now, cycleId, agentId)) !== 1) return { ok: false, reason: 'not_found' };
      return { ok: true, acknowledged: await tx.run(CYCLE_SQL.ack, now, cycleId) };
    });
  }

  async extendCycle(agentId: string, cycleId: string, leaseUntil: number): Promise<boolean> {
    return (await this.db.run(CYCLE_SQL.extend, leaseUntil, cycleId, agentId)) === 1;
  }
}
