import { defineTool, type Tool } from '@toolbelt/core';
import { ANTHROPIC } from './group.js';
import { z } from 'zod';
import type { ApiClient } from '../net/api.js';
import {
  claudeCodeTable,
  costTable,
  usageTable,
  type Bucket,
  type ClaudeCodeRecord,
  type CostResult,
  type UsageResult,
} from './report.js';

const description = `Anthropic organization reports from the Admin API as a small table: "usage" (tokens per bucket), "cost" (USD per day) or "claude_code" (sessions, lines, commits, PRs per user and day).`;

const USAGE_GROUPS = ['model', 'workspace_id', 'api_key_id', 'service_tier', 'context_window'] as const;
const COST_GROUPS = ['workspace_id', 'description'] as const;
const DAY = /^\d{4}-\d{2}-\d{2}$/;
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;
const MAX_PAGES = 10;

const input = z.object({
  action: z.enum(['usage', 'cost', 'claude_code']).describe('Which report.'),
  starting_at: z.string().describe('Start, UTC: 2025-05-01 or 2025-05-01T00:00:00Z (claude_code takes a day).'),
  ending_at: z.string().optional().describe('End, exclusive; same form. Not for claude_code.'),
  bucket_width: z.enum(['1m', '1h', '1d']).optional().describe('usage: 1m, 1h or 1d (1d when omitted); cost: 1d only.'),
  group_by: z
    .array(z.enum([...new Set([...USAGE_GROUPS, ...COST_GROUPS])] as [string, ...string[]]))
    .max(5)
    .optional()
    .describe(`usage: ${USAGE_GROUPS.join(', ')}; cost: ${COST_GROUPS.join(', ')}.`),
  limit: z.number().int().min(1).max(1440).optional().describe('Buckets (or claude_code records) per page.'),
});

type Input = z.infer<typeof input>;

function problem(i: Input): string | undefined {
  for (const [name, value] of [
    ['starting_at', i.starting_at],
    ['ending_at', i.ending_at],
  ] as const) {
    if (value !== undefined && !DAY.test(value) && !INSTANT.test(value))
      return `${name} "${value}" is neither a day (2025-05-01) nor a UTC time (2025-05-01T00:00:00Z)`;
  }
  if (i.action === 'cost' && i.bucket_width && i.bucket_width !== '1d')
    return 'the cost report has daily buckets only; use bucket_width "1d" or leave it out';
  const allowed: readonly string[] = i.action === 'usage' ? USAGE_GROUPS : i.action === 'cost' ? COST_GROUPS : [];
  const wrong = (i.group_by ?? []).filter((g) => !allowed.includes(g));
  if (wrong.length)
    return `${i.action} cannot be grouped by ${wrong.join(', ')}${allowed.length ? `; use ${allowed.join(', ')}` : ''}`;
  if (i.action === 'claude_code' && (i.ending_at || i.bucket_width))
    return 'claude_code takes one day in starting_at; leave out ending_at and bucket_width';
  return undefined;
}

const instant = (v: string | undefined) => (v && DAY.test(v) ? `${v}T00:00:00Z` : v);

async function pages<T>(
  api: ApiClient,
  path: string,
  query: Record<string, string | number | string[] | undefined>,
  signal: AbortSignal,
): Promise<T[]> {
  const all: T[] = [];
  let page: string | undefined;
  for (let n = 0; n < MAX_PAGES; n++) {
    const r = await api.json<{ data?: T[]; has_more?: boolean; next_page?: string | null }>(
      path,
      { query: { ...query, page } },
      signal,
    );
    all.push(...(r.data ?? []));
    if (!r.has_more || !r.next_page) break;
    page = r.next_page;
  }
  return all;
}

export function anthropicUsageTool(api: ApiClient): Tool {
  return defineTool({
    name: 'anthropic_usage',
    title: 'Anthropic usage and cost',
    description,
    input,
    category: 'integrations',
    group: ANTHROPIC,
    annotations: { openWorld: true },
    effect: 'read',
    timeoutMs: 60_000,
    validate: problem,
    async execute(i, ctx) {
      const groups = i.group_by ?? [];
      if (i.action === 'claude_code') {
        const records = await pages<ClaudeCodeRecord>(
          api,
          'usage_report/claude_code',
          { starting_at: i.starting_at.slice(0, 10), limit: i.limit },
          ctx.signal,
        );
        return {
          content: `Claude Code on ${i.starting_at.slice(0, 10)}:\n${claudeCodeTable(records)}`,
          metadata: { records: records.length },
        };
      }
      const width = i.bucket_width ?? '1d';
      const query = {
        starting_at: instant(i.starting_at),
        ending_at: instant(i.ending_at),
        bucket_width: width,
        'group_by[]': groups,
        limit: i.limit,
      };
      const range = `${instant(i.starting_at)}${i.ending_at ? ` to ${instant(i.ending_at)}` : ''}`;
      if (i.action === 'cost') {
        const buckets = await pages<Bucket<CostResult>>(api, 'cost_report', query, ctx.signal);
        return {
          content: `Cost from ${range}, in USD:\n${costTable(buckets, groups)}`,
          metadata: { buckets: buckets.length },
        };
      }
      const buckets = await pages<Bucket<UsageResult>>(api, 'usage_report/messages', query, ctx.signal);
      return {
        content: `Token usage from ${range}, per ${width}:\n${usageTable(buckets, width, groups)}`,
        metadata: { buckets: buckets.length },
      };
    },
  });
}
