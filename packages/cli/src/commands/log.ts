// `toolbelt log`: the execution log — calls made by the CLI (JSON lines) and through the gateway
// (its database) — merged, filtered, oldest first.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { ExecutionLogEntry } from '@toolbelt/core';
import { EXIT, UsageError, type Command } from '../command.js';
import { loadConfig } from '../runtime.js';
import { describeDb, isPostgresUrl, openGatewayDb } from '../gateway-db.js';
import { gatewayDbPath } from '../state-paths.js';
import { readJsonl } from '../stores.js';

const USAGE = `Usage: toolbelt log [--root DIR] [--config FILE] [--db FILE|URL] [options]

  --db FILE|URL the gateway database (default: the one toolbelt serve uses; a postgres:// URL too)
  --source S    all | cli | gateway (default all)
  --tool NAME   only this tool
  --status S    success | error | rejected | pending
  --agent ID    only calls of this agent (gateway)
  --run ID      only calls of this run (gateway)
  --since T     an ISO time, or an age such as 30m, 2h, 7d
  --limit N     the most recent N entries (default 50)
  --json        one JSON object per line`;

type Entry = ExecutionLogEntry & { source: 'cli' | 'gateway' };

export function parseSince(raw: string, now = Date.now()): string {
  const age = /^(\d+)(s|m|h|d)$/.exec(raw);
  if (age) return new Date(now - Number(age[1]) * { s: 1e3, m: 6e4, h: 36e5, d: 864e5 }[age[2] as 's']).toISOString();
  const t = Date.parse(raw);
  if (Number.isNaN(t))
    throw new UsageError(`--since must be an ISO time or an age such as 30m, 2h or 7d, not "${raw}"`);
  return new Date(t).toISOString();
}

/** The columns of one entry: when, status, duration, tool, who, call id, then parameters and error. */
function cells(e: Entry): string[] {
  const when = e.timestamp.replace('T', ' ').replace(/\.\d+Z$/, 'Z');
  const who = e.source === 'gateway' ? `gateway ${e.agentId ?? '-'}/${e.runId ?? '-'}` : 'cli';
  let params = JSON.stringify(e.params) ?? '';
  if (params.length > 80) params = `${params.slice(0, 77)}...`;
  const why = e.error ? `  ${e.error.code}: ${e.error.message.split('\n')[0].slice(0, 100)}` : '';
  return [when, e.status, `${Math.round(e.durationMs)}ms`, e.tool, who, e.callId, `${params}${why}`];
}

/** Rows under each other: every column as wide as its widest cell (durations right-aligned), the last as it is. */
export function table(entries: Entry[]): string[] {
  const rows = entries.map(cells);
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  return rows.map((r) =>
    r
      .map((cell, i) => (i === r.length - 1 ? cell : i === 2 ? cell.padStart(widths[i]) : cell.padEnd(widths[i])))
      .join('  ')
      .trimEnd(),
  );
}

export const logCommand: Command = {
  name: 'log',
  usage: USAGE,
  options: {
    root: { type: 'string', multiple: true },
    config: { type: 'string' },
    db: { type: 'string' },
    source: { type: 'string' },
    tool: { type: 'string' },
    status: { type: 'string' },
    agent: { type: 'string' },
    run: { type: 'string' },
    since: { type: 'string' },
    limit: { type: 'string' },
    json: { type: 'boolean' },
  },
  async run(values, _pos, io) {
    const source = (values.source as string | undefined) ?? 'all';
    if (!['all', 'cli', 'gateway'].includes(source))
      throw new UsageError(`--source must be all, cli or gateway, not "${source}"`);
    const limit = values.limit === undefined ? 50 : Number(values.limit);
    if (!Number.isInteger(limit) || limit <= 0)
      throw new UsageError(`--limit must be a positive integer, not "${String(values.limit)}"`);
    const since = values.since ? parseSince(values.since as string) : undefined;
    const { config, roots } = loadConfig(values as { root?: string[]; config?: string });
    const stateDir = join(roots[0], '.toolbelt');
    const keep = (e: ExecutionLogEntry) =>
      (!values.tool || e.tool === values.tool) &&
      (!values.status || e.status === values.status) &&
      (!values.agent || e.agentId === values.agent) &&
      (!values.run || e.runId === values.run) &&
      (!since || e.timestamp >= since);

    const entries: Entry[] = [];
    if (source !== 'gateway') {
      for (const e of readJsonl<ExecutionLogEntry>(join(stateDir, 'executions.jsonl')))
        if (keep(e)) entries.push({ ...e, source: 'cli' });
    }
    const dbFile = gatewayDbPath(
      (values.db as string | undefined) ?? (process.env.TOOLBELT_DB || undefined) ?? config.gateway?.db,
      roots[0],
    );
    if (source !== 'cli' && (isPostgresUrl(dbFile) || existsSync(dbFile))) {
      let store;
      try {
        store = await openGatewayDb(dbFile, { readonly: true });
      } catch (err) {
        throw new UsageError(`cannot read the gateway log in ${describeDb(dbFile)}: ${(err as Error).message}`);
      }
      try {
        const filter = {
          limit,
          ...(values.tool ? { tool: values.tool as string } : {}),
          ...(values.status ? { status: values.status as string } : {}),
          ...(values.agent ? { agentId: values.agent as string } : {}),
          ...(values.run ? { runId: values.run as string } : {}),
          ...(since ? { since } : {}),
        };
        for (const e of (await store.listExecutions(filter)).entries) entries.push({ ...e, source: 'gateway' });
      } finally {
        await store.close();
      }
    }
    entries.sort((a, b) => (a.timestamp < b.timestamp ? -1 : a.timestamp > b.timestamp ? 1 : 0));
    const shown = entries.slice(-limit);
    if (values.json) for (const e of shown) io.stdout.write(JSON.stringify(e) + '\n');
    else if (!shown.length) io.stdout.write('No executions logged yet (or none match).\n');
    else io.stdout.write(table(shown).join('\n') + '\n');
    return EXIT.ok;
  },
};
