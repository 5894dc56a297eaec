// The Admin API's usage, cost and Claude Code reports as small tables: a row per bucket and group,
// empty buckets left out, totals last. Buckets are UTC, as the API counts them.
import { money, textTable } from '../text/table.js';

export interface Bucket<R> {
  starting_at: string;
  ending_at?: string;
  results: R[];
}

export interface UsageResult {
  uncached_input_tokens?: number;
  cache_creation?: { ephemeral_1h_input_tokens?: number; ephemeral_5m_input_tokens?: number };
  cache_read_input_tokens?: number;
  output_tokens?: number;
  server_tool_use?: { web_search_requests?: number };
  [group: string]: unknown;
}

export interface CostResult {
  /** In cents, as a decimal string ("1234.56" is $12.3456). */
  amount?: string;
  currency?: string;
  [group: string]: unknown;
}

export interface ClaudeCodeRecord {
  date: string;
  actor?: { type?: string; email_address?: string; api_key_name?: string };
  core_metrics?: {
    num_sessions?: number;
    lines_of_code?: { added?: number; removed?: number };
    commits_by_claude_code?: number;
    pull_requests_by_claude_code?: number;
  };
  model_breakdown?: { model?: string; estimated_cost?: { amount?: number | string; currency?: string } }[];
}

const label = (iso: string, width: string) =>
  width === '1d' ? iso.slice(0, 10) : width === '1h' ? `${iso.slice(0, 13)}:00` : iso.slice(0, 16).replace('T', ' ');
const groupCells = (r: Record<string, unknown>, groups: string[]) =>
  groups.map((g) => (r[g] === null || r[g] === undefined ? '-' : String(r[g])));

/** Cents (a string or number) to dollars. */
function usd(cents: string | number | undefined): number {
  const n = Number(cents ?? 0);
  return Number.isFinite(n) ? Math.round(n) / 100 : 0;
}

export function usageTable(buckets: Bucket<UsageResult>[], width: string, groups: string[]): string {
  const rows: (string | number)[][] = [];
  const total = [0, 0, 0, 0, 0];
  for (const b of buckets) {
    for (const r of b.results) {
      const cacheWrite =
        (r.cache_creation?.ephemeral_5m_input_tokens ?? 0) + (r.cache_creation?.ephemeral_1h_input_tokens ?? 0);
      const n = [
        r.uncached_input_tokens ?? 0,
        cacheWrite,
        r.cache_read_input_tokens ?? 0,
        r.output_tokens ?? 0,
        r.server_tool_use?.web_search_requests ?? 0,
      ];
      n.forEach((v, i) => (total[i] += v));
      rows.push([label(b.starting_at, width), ...groupCells(r, groups), ...n]);
    }
  }
  if (!rows.length) return 'No usage in this range.';
  const columns = ['bucket (UTC)', ...groups, 'input', 'cache write', 'cache read', 'output', 'web searches'];
  const searches = total[4] > 0;
  const table = textTable(
    searches ? columns : columns.slice(0, -1),
    [...rows, ['total', ...groups.map(() => ''), ...total]].map((r) => (searches ? r : r.slice(0, -1))),
  );
  return table;
}

export function costTable(buckets: Bucket<CostResult>[], groups: string[]): string {
  const rows: (string | number)[][] = [];
  let total = 0;
  for (const b of buckets) {
    for (const r of b.results) {
      const dollars = usd(r.amount);
      total += dollars;
      rows.push([label(b.starting_at, '1d'), ...groupCells(r, groups), money(dollars)]);
    }
  }
  if (!rows.length) return 'No cost in this range.';
  return textTable(['day (UTC)', ...groups, 'amount_usd'], [...rows, ['total', ...groups.map(() => ''), money(total)]]);
}

export function claudeCodeTable(records: ClaudeCodeRecord[]): string {
  if (!records.length) return 'No Claude Code activity in this range.';
  const rows = records.map((r) => {
    const m = r.core_metrics ?? {};
    const cost = (r.model_breakdown ?? []).reduce((sum, b) => sum + usd(b.estimated_cost?.amount), 0);
    return [
      r.date.slice(0, 10),
      r.actor?.email_address ?? r.actor?.api_key_name ?? '-',
      m.num_sessions ?? 0,
      m.lines_of_code?.added ?? 0,
      m.lines_of_code?.removed ?? 0,
      m.commits_by_claude_code ?? 0,
      m.pull_requests_by_claude_code ?? 0,
      money(cost),
    ];
  });
  return textTable(
    ['date', 'actor', 'sessions', 'lines added', 'lines removed', 'commits', 'PRs', 'est. cost_usd'],
    rows,
  );
}
