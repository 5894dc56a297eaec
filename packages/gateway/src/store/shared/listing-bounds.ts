// Listings are bounded by size as well as by count: a field too large to list is cut to a preview in
// SQL (the full text never leaves the database for a listing), and a page ends once its rows hold
// PAGE_CHARS, with the cursor to the next. The full record stays one GET away.
import { routePath } from '@toolbelt/protocol/routes';
import type { ExecutionLogEntry } from '@toolbelt/core';
import type { ExecutionList } from '@toolbelt/protocol';
import { toCall, type Row } from './rows.js';
import type { CallRecord } from './types.js';

/** A JSON field longer than this (in characters) is listed as a preview. */
export const FIELD_MAX = 8 * 1024;
/** A page ends once its rows hold this many characters (the count limit still applies). */
export const PAGE_CHARS = 4 * 1024 * 1024;
const PREVIEW = 512;

/** The JSON columns of a call that can be large. */
const BIG_CALL_COLUMNS = ['input', 'approval', 'decision', 'question', 'answer', 'submitted', 'result'] as const;
const SMALL_CALL_COLUMNS =
  'seq, call_id, run_id, agent_id, session_id, tool, status, visible, created_at, updated_at, expires_at, resolved_at';

/** `col` as itself when small, else its first characters, and its length as `col_len` (SQLite and PostgreSQL alike). */
function cut(col: string): string {
  return `CASE WHEN length(${col}) > ${FIELD_MAX} THEN substr(${col}, 1, ${PREVIEW}) ELSE ${col} END AS ${col}, COALESCE(length(${col}), 0) AS ${col}_len`;
}

export const CALL_LISTING_COLUMNS = `${SMALL_CALL_COLUMNS}, ${BIG_CALL_COLUMNS.map(cut).join(', ')}`;
export const EXECUTION_LISTING_COLUMNS = `id, call_id, tool, status, agent_id, run_id, timestamp, ${cut('entry')}`;

const camel = (col: string) => col.replace(/_(\w)/g, (_, c: string) => c.toUpperCase());
const preview = (text: string, size: number) => `${text}… (${size} characters in all)`;

/** Listed calls, up to the page's size; `cut` says the page ended early for size. */
export function callPage(rows: Row[]): { calls: CallRecord[]; cut: boolean } {
  const calls: CallRecord[] = [];
  let chars = 0;
  for (const r of rows) {
    if (calls.length && chars >= PAGE_CHARS) return { calls, cut: true };
    const big = BIG_CALL_COLUMNS.filter((c) => r[`${c}_len`] > FIELD_MAX);
    for (const c of big) r[c] = JSON.stringify(preview(r[c] as string, r[`${c}_len`]));
    const call = toCall(r);
    if (big.length) {
      const size = big.reduce((n, c) => n + (r[`${c}_len`] as number), 0);
      call.truncated = { fields: big.map(camel), size, href: routePath('getCall', { callId: call.callId }) };
    }
    chars += BIG_CALL_COLUMNS.reduce((n, c) => n + Math.min(r[`${c}_len`] as number, FIELD_MAX), 0);
    calls.push(call);
  }
  return { calls, cut: false };
}

/** A page of the execution log, up to the page's size, with the cursor to the next when there may be more. */
export function executionPage(rows: Row[], limit: number): ExecutionList {
  const entries: ExecutionLogEntry[] = [];
  let chars = 0;
  let last = 0;
  for (const r of rows) {
    if (entries.length && chars >= PAGE_CHARS) return { entries, nextBefore: last };
    entries.push(r.entry_len > FIELD_MAX ? cutEntry(r) : (JSON.parse(r.entry) as ExecutionLogEntry));
    chars += Math.min(r.entry_len as number, FIELD_MAX);
    last = Number(r.id);
  }
  return rows.length === limit && rows.length > 0 ? { entries, nextBefore: last } : { entries };
}

/** An entry too large to list: its columns, and its params and result as one preview. */
function cutEntry(r: Row): ExecutionLogEntry {
  const size = r.entry_len as number;
  return {
    callId: r.call_id,
    tool: r.tool,
    status: r.status,
    timestamp: r.timestamp,
    sessionId: '',
    durationMs: 0,
    params: preview(r.entry as string, size),
    ...(r.agent_id ? { agentId: r.agent_id } : {}),
    ...(r.run_id ? { runId: r.run_id } : {}),
    truncated: {
      fields: ['params', 'result'],
      size,
      href: routePath('getCall', { callId: r.call_id as string }),
    },
  };
}
