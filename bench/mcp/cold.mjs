// Cold start of each MCP server as a whole process, interleaved in rounds: wall time from spawn to
// the first tools/list answer, and CPU of the server's whole process tree from spawn to the answer
// of its first read (spawn, initialize, list tools, one read, measured before close), with the read
// checked to hold the whole file on every server. One more toolbelt start runs under --cpu-prof
// for where its CPU goes.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { assertSameWork, report } from '../lib/harness.mjs';
import { treeCpuMs } from '../lib/tree-cpu.mjs';
import { summarizeProfile } from '../lib/cpu-profile.mjs';

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const p90 = (xs) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.9))];

/** One whole-process start: { listMs, cpuMs, answer }; `nodeArgs` go before the script (--cpu-prof). */
async function startOnce(server, cwd, answer, nodeArgs = []) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [...nodeArgs, ...server.args],
    stderr: 'ignore',
    cwd,
  });
  const client = new Client({ name: 'bench', version: '1' });
  const t0 = performance.now();
  try {
    await client.connect(transport);
    await client.listTools();
    const listMs = performance.now() - t0;
    const result = await client.callTool({ name: server.tool, arguments: server.input });
    return { listMs, cpuMs: treeCpuMs(transport.pid), answer: answer(result) };
  } finally {
    await client.close();
  }
}

/**
 * `servers`: { name: { args, tool, input } }; `answer(result)` makes a read comparable. Returns the
 * report (rows: p50/p90 ms to tools/list, median CPU ms to the first read, ratios to `anchor`).
 */
export async function coldStart({ servers, anchor, cwd, rounds, answer }) {
  const names = Object.keys(servers);
  const list = Object.fromEntries(names.map((n) => [n, []]));
  const cpu = Object.fromEntries(names.map((n) => [n, []]));
  for (let r = 0; r < rounds; r++) {
    const answers = {};
    // Rotated order: no subject always starts right after another's exit.
    for (const name of names.map((_, i) => names[(i + r) % names.length])) {
      const run = await startOnce(servers[name], cwd, answer);
      list[name].push(run.listMs);
      cpu[name].push(run.cpuMs);
      answers[name] = run.answer;
    }
    assertSameWork('mcp-cold-start', Object.fromEntries(names.map((n) => [n, answers[n]])));
  }
  const rows = names.map((subject) => ({
    subject,
    p50ms: median(list[subject]),
    p90ms: p90(list[subject]),
    cpuMs: median(cpu[subject]),
    // Paired: this subject's CPU over the anchor's in the same round, median of the rounds.
    cpuToAnchor: median(cpu[subject].map((c, i) => c / cpu[anchor][i])),
  }));
  const base = rows.find((r) => r.subject === anchor);
  for (const r of rows) r.speedupVsAnchor = base.p50ms / r.p50ms;
  return report({ name: 'mcp-cold-start', anchor, concurrency: 1, iterations: rounds, rows });
}

/** One start of `server` under --cpu-prof (written when it exits on close): the profile's summary. */
export async function profiledStart(server, cwd, answer) {
  const dir = mkdtempSync(join(tmpdir(), 'toolbelt-bench-prof-'));
  try {
    await startOnce(server, cwd, answer, ['--cpu-prof', `--cpu-prof-dir=${dir}`]);
    // close() waits for the exit (up to 2 s before SIGTERM); the profile is written on the way out.
    return summarizeProfile(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export function coldTable(result) {
  const lines = [
    '| subject | to tools/list p50 ms | p90 ms | speed vs anchor (p50) | CPU to first read, ms (median) | CPU vs anchor (paired) |',
    '|---|---:|---:|---:|---:|---:|',
  ];
  for (const r of result.rows)
    lines.push(
      `| ${r.subject} | ${r.p50ms.toFixed(0)} | ${r.p90ms.toFixed(0)} | ${r.speedupVsAnchor.toFixed(2)}x | ${r.cpuMs.toFixed(0)} | ${r.cpuToAnchor.toFixed(2)}x |`,
    );
  return lines.join('\n');
}
