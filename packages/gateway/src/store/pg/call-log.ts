// The record of calls starting and finishing, on the PostgreSQL store's log connections: every call
// that starts (or finishes) in one event-loop turn is written by one statement.
import type { ToolResult } from '@toolbelt/core';
import { jsonOfResult } from '../../json.js';
import { TurnBatch } from './batch.js';
import type { PgDb } from './db.js';
import { outcomeOf, toSpaceMessage } from '../shared/rows.js';
import { ACTIVE } from '../shared/statements.js';
import type { CallStatus, NewCall, SpaceMessage } from '../shared/types.js';

const FINAL: Record<ToolResult['status'], CallStatus> = {
  success: 'success',
  error: 'error',
  rejected: 'rejected',
  pending: 'pending',
};

const CREATE = `INSERT INTO tool_calls (call_id, run_id, agent_id, session_id, tool, input, status, visible, created_at, updated_at, owner)
  SELECT c, r, a, s, t, i, 'running', v, at, at, ? FROM unnest(?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::int[], ?::bigint[])
    AS x(c, r, a, s, t, i, v, at)
  ON CONFLICT (call_id) DO NOTHING RETURNING call_id`;

// Each call's final status (kept when it is open or resolved), and its space message settled when it ended.
const FINISH = `WITH v AS (SELECT * FROM unnest(?::text[], ?::text[], ?::text[], ?::text[], ?::bigint[]) AS v(call_id, result, final, outcome, at)),
  f AS (UPDATE tool_calls t SET result = v.result, updated_at = v.at,
      status = CASE WHEN t.status IN (${ACTIVE}) THEN v.final ELSE t.status END
    FROM v WHERE t.call_id = v.call_id RETURNING t.call_id, t.status, t.visible)
  UPDATE space_messages m SET status = CASE WHEN f.status = 'success' THEN 'complete' ELSE 'error' END, outcome = v.outcome, updated_at = v.at
  FROM f JOIN v ON v.call_id = f.call_id
  WHERE m.call_id = f.call_id AND f.visible = 1 AND f.status IN ('success', 'error', 'rejected') AND m.status IN ('running', 'requires_action')
  RETURNING m.*`;

interface Finish {
  callId: string;
  result: ToolResult;
  now: number;
}

export class PgCallLog {
  private readonly creates: TurnBatch<NewCall, boolean>;
  private readonly finishes: TurnBatch<Finish, SpaceMessage | undefined>;

  constructor(db: PgDb, owner: string) {
    this.creates = new TurnBatch((calls) => create(db, owner, calls));
    this.finishes = new TurnBatch((items) => finish(db, items));
  }

  /** Records a new call as running; false when the callId is taken. */
  create(call: NewCall): Promise<boolean> {
    return this.creates.push(call);
  }

  /** Stores what the agent got back; returns the call's space message when it settled. */
  finish(callId: string, result: ToolResult, now: number): Promise<SpaceMessage | undefined> {
    return this.finishes.push({ callId, result, now });
  }
}

async function create(db: PgDb, owner: string, calls: NewCall[]): Promise<boolean[]> {
  // A callId twice in one turn: the first one is the call, the second is refused.
  const first = new Map<string, NewCall>();
  for (const c of calls) if (!first.has(c.callId)) first.set(c.callId, c);
  const xs = [...first.values()];
  const rows = await db.all(
    CREATE,
    owner,
    xs.map((c) => c.callId),
    xs.map((c) => c.runId),
    xs.map((c) => c.agentId),
    xs.map((c) => c.sessionId),
    xs.map((c) => c.tool),
    xs.map((c) => JSON.stringify(c.input ?? null)),
    xs.map((c) => (c.visible ? 1 : 0)),
    xs.map((c) => c.createdAt),
  );
  const created = new Set(rows.map((r) => r.call_id as string));
  return calls.map((c) => first.get(c.callId) === c && created.has(c.callId));
}

async function finish(db: PgDb, items: Finish[]): Promise<(SpaceMessage | undefined)[]> {
  const rows = await db.all(
    FINISH,
    items.map((f) => f.callId),
    items.map((f) => jsonOfResult(f.result)),
    items.map((f) => FINAL[f.result.status]),
    items.map((f) => JSON.stringify(outcomeOf(f.result))),
    items.map((f) => f.now),
  );
  const settled = new Map(rows.map((r) => [r.call_id as string, toSpaceMessage(r)]));
  return items.map((f) => settled.get(f.callId));
}
