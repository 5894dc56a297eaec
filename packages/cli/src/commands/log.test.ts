// `toolbelt log` merges the CLI's JSON lines and the gateway's database, oldest first, filtered.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ExecutionLogEntry } from '@toolbelt/core';
import { openSqliteStore } from '@toolbelt/gateway';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runMain, type MainRun } from '../__fixtures__/run-main.js';
import { gatewayDbPath } from '../state-paths.js';
import { parseSince } from './log.js';

const root = mkdtempSync(join(tmpdir(), 'tb-log-'));
// The gateway database's default place is per user, outside the workspace: here, inside the temp dir.
process.env.XDG_STATE_HOME = join(root, 'state');
const entry = (
  callId: string,
  tool: string,
  minute: number,
  extra: Partial<ExecutionLogEntry> = {},
): ExecutionLogEntry => ({
  callId,
  tool,
  params: { path: `${callId}.txt` },
  status: 'success',
  durationMs: 3.4,
  timestamp: `2026-01-01T10:0${minute}:00.000Z`,
  sessionId: 's',
  ...extra,
});

beforeAll(async () => {
  mkdirSync(join(root, '.toolbelt'));
  const cli = [entry('cli-1', 'read_file', 1), entry('cli-2', 'write_file', 3, { status: 'rejected' })];
  writeFileSync(
    join(root, '.toolbelt', 'executions.jsonl'),
    cli.map((e) => JSON.stringify(e)).join('\n') + '\n{"torn line',
  );
  const store = openSqliteStore(gatewayDbPath(undefined, root));
  await store.appendExecutions([
    entry('gw-1', 'read_file', 2, { agentId: 'agent-a', runId: 'run-1' }),
    entry('gw-2', 'shell_exec', 4, {
      status: 'error',
      agentId: 'agent-b',
      runId: 'run-2',
      error: { code: 'TIMEOUT', message: 'shell_exec timed out', recoverable: true },
    }),
  ]);
  await store.close();
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

function run(...args: string[]): Promise<MainRun> {
  return runMain(['log', '--root', root, ...args]);
}

describe('toolbelt log', () => {
  it('merges the CLI log and the gateway log, oldest first, skipping a torn last line', async () => {
    const { code, out } = await run();
    expect(code).toBe(0);
    const ids = out
      .trim()
      .split('\n')
      .map((l) => /\s(cli-\d|gw-\d)\s/.exec(l)?.[1]);
    expect(ids).toEqual(['cli-1', 'gw-1', 'cli-2', 'gw-2']);
    expect(out).toContain('gateway agent-b/run-2');
    expect(out).toContain('TIMEOUT: shell_exec timed out');
  });

  it('lines up every column, on CLI and gateway rows alike', async () => {
    const rows = (await run()).out.trim().split('\n');
    // Each column starts where it starts on every row: the call id, and the parameters after it.
    const at = (pattern: RegExp) => rows.map((r) => pattern.exec(r)?.index);
    for (const column of [/(cli|gw)-\d /, /\{"path"/, /\d+ms/, /(read|write)_file|shell_exec/]) {
      expect(new Set(at(column)).size, String(column)).toBe(1);
    }
    expect(rows[0]).toBe(
      `2026-01-01 10:01:00Z  success   3ms  read_file   ${'cli'.padEnd(21)}  cli-1  {"path":"cli-1.txt"}`,
    );
    expect(rows[1]).toBe(
      '2026-01-01 10:02:00Z  success   3ms  read_file   gateway agent-a/run-1  gw-1   {"path":"gw-1.txt"}',
    );
  });

  it('filters by source, tool, status, agent, run and time, and limits to the most recent', async () => {
    const ids = async (...a: string[]) =>
      (await run('--json', ...a)).out
        .trim()
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l).callId);
    expect(await ids('--source', 'gateway')).toEqual(['gw-1', 'gw-2']);
    expect(await ids('--source', 'cli')).toEqual(['cli-1', 'cli-2']);
    expect(await ids('--tool', 'read_file')).toEqual(['cli-1', 'gw-1']);
    expect(await ids('--status', 'rejected')).toEqual(['cli-2']);
    expect(await ids('--agent', 'agent-a')).toEqual(['gw-1']);
    expect(await ids('--run', 'run-2')).toEqual(['gw-2']);
    expect(await ids('--since', '2026-01-01T10:03:00Z')).toEqual(['cli-2', 'gw-2']);
    expect(await ids('--limit', '1')).toEqual(['gw-2']);
    expect(JSON.parse((await run('--json', '--limit', '1')).out)).toMatchObject({ source: 'gateway', status: 'error' });
  });

  it('says so when nothing matches, and refuses bad options', async () => {
    expect((await run('--tool', 'nope')).out).toBe('No executions logged yet (or none match).\n');
    const since = await run('--since', 'yesterday-ish');
    expect([since.code, since.err.trim()]).toEqual([
      2,
      'toolbelt log: --since must be an ISO time or an age such as 30m, 2h or 7d, not "yesterday-ish"',
    ]);
    expect((await run('--source', 'both')).code).toBe(2);
    expect((await run('--limit', '0')).code).toBe(2);
  });

  it('reads ages for --since', () => {
    const now = Date.parse('2026-01-01T12:00:00Z');
    expect(parseSince('30m', now)).toBe('2026-01-01T11:30:00.000Z');
    expect(parseSince('2h', now)).toBe('2026-01-01T10:00:00.000Z');
    expect(parseSince('1d', now)).toBe('2025-12-31T12:00:00.000Z');
  });
});
