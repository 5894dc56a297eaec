// One runtime, one executor, three front ends: a call is approved by the person of the front end it
// came through — MCP by elicitation, HTTP through the gateway's approval API, the terminal by its
// prompt — and every call lands in the same metrics and the same execution log.
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExecutionLogEntry, ToolResult } from '@toolbelt/core';
import { GatewayClient } from '@toolbelt/client';
import { createGateway, openSqliteStore, storeDecisions, type Gateway, type SqliteStore } from '@toolbelt/gateway';
import { ToolServer } from '@toolbelt/mcp';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ElicitRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { createRuntime, type Runtime } from './runtime.js';
import { readJsonl } from './stores.js';
import { terminalApprover } from './terminal/approver.js';

const root = realpathSync(mkdtempSync(join(tmpdir(), 'tb-routing-')));
const state = mkdtempSync(join(tmpdir(), 'tb-routing-state-'));
const terminalIn = new PassThrough();
const terminalOut = new PassThrough();
let shownInTerminal = '';
terminalOut.on('data', (d) => (shownInTerminal += d));
const elicited: string[] = [];

let rt: Runtime;
let store: SqliteStore;
let gateway: Gateway;
let toolServer: ToolServer;
let mcp: Client;
let http: GatewayClient;

beforeAll(async () => {
  rt = await createRuntime(
    { root: [root], mode: 'safe' },
    {
      env: { XDG_STATE_HOME: state },
      warn: () => {},
      approvers: { terminal: terminalApprover(terminalIn, terminalOut) },
      stores: (plan) => {
        store = openSqliteStore(plan.gatewayDb);
        return { decisions: storeDecisions(store), close: () => store.close() };
      },
    },
  );
  gateway = await createGateway({ executor: rt.executor, registry: rt.registry, store, env: {} });
  const listening = await gateway.listen({ host: '127.0.0.1', port: 0 });
  http = new GatewayClient({ url: listening.url, agentId: 'agent-a' });
  toolServer = new ToolServer({ executor: rt.executor });
  mcp = new Client({ name: 'routing-test', version: '1' }, { capabilities: { elicitation: { form: {} } } });
  mcp.setRequestHandler(ElicitRequestSchema, (req) => {
    elicited.push((req.params as { message: string }).message);
    return { action: 'accept', content: { decision: 'approve' } };
  });
  const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
  await toolServer.connect(serverSide);
  await mcp.connect(clientSide);
});

afterAll(async () => {
  await mcp?.close();
  await toolServer?.close();
  await gateway?.close();
  await rt?.close();
  rmSync(root, { recursive: true, force: true });
  rmSync(state, { recursive: true, force: true });
});

/** Resolves once `check` holds, looking again on each turn of the event loop. */
async function until(check: () => Promise<boolean> | boolean, what: string): Promise<void> {
  for (let i = 0; i < 2000; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 5));
  }
  throw new Error(`gave up waiting for ${what}`);
}

describe('approval routing through one executor', () => {
  it('asks each call through the front end it came from, and logs all three in one place', async () => {
    expect(gateway.executor).toBe(rt.executor);
    expect(toolServer.executor).toBe(rt.executor);

    // All three wait for approval at once, each in its own channel.
    const fromMcp = mcp.callTool({ name: 'write_file', arguments: { path: 'from-mcp.txt', content: 'mcp' } });
    const fromHttp = http.call('run-1', 'write_file', { path: 'from-http.txt', content: 'http' }, { callId: 'http-1' });
    const fromTerminal = rt.executor.call({
      tool: 'write_file',
      input: { path: 'from-terminal.txt', content: 'terminal' },
      sessionId: 'cli',
      origin: 'terminal',
    });

    await until(
      async () => (await http.getCall('http-1').catch(() => undefined))?.status === 'awaiting_approval',
      'the HTTP call to await approval',
    );
    expect(await http.approve('http-1')).toMatchObject({
      status: 'running',
      decision: { outcome: 'approve', scope: 'once' },
    });
    await until(() => shownInTerminal.includes('Approve?'), 'the terminal prompt');
    terminalIn.write('y\n');

    const mcpResult = (await fromMcp) as CallToolResult;
    expect(mcpResult.isError).toBeFalsy();
    expect(mcpResult._meta?.['toolbelt/call']).toMatchObject({ status: 'success', approvedBy: 'user' });
    for (const r of [await fromHttp, await fromTerminal] as ToolResult[])
      expect(r).toMatchObject({ status: 'success', approvedBy: 'user' });
    for (const name of ['mcp', 'http', 'terminal'])
      expect(readFileSync(join(root, `from-${name}.txt`), 'utf8')).toBe(name);

    // Each person saw only the call that came through their channel.
    expect(elicited).toHaveLength(1);
    expect(elicited[0]).toContain('from-mcp.txt');
    expect(shownInTerminal.match(/Tool approval: write_file/g)).toHaveLength(1);
    expect(shownInTerminal).toContain('from-terminal.txt');
    expect(shownInTerminal).not.toMatch(/from-(mcp|http)\.txt/);
    const asked = (await http.calls()).calls;
    expect(asked.map((c) => [c.callId, c.approval?.origin])).toEqual([['http-1', 'http']]);

    // One executor: one set of metrics and one execution log, in the file and in the gateway's store.
    expect(rt.executor.metrics.snapshot().find((m) => m.tool === 'write_file')).toMatchObject({ calls: 3 });
    await rt.executor.logs.flush();
    const origins = (entries: ExecutionLogEntry[]) =>
      entries
        .filter((e) => e.tool === 'write_file')
        .map((e) => e.origin)
        .sort();
    expect(origins(readJsonl<ExecutionLogEntry>(rt.log!.file))).toEqual(['http', 'mcp', 'terminal']);
    expect(origins((await store.listExecutions({ limit: 10 })).entries)).toEqual(['http', 'mcp', 'terminal']);
  });

  it('rejects a call from an origin no front end approves for, asking nobody', async () => {
    const before = {
      elicited: elicited.length,
      shown: shownInTerminal.length,
      calls: (await http.calls()).calls.length,
    };
    const result = await rt.executor.call({ tool: 'write_file', input: { path: 'from-library.txt', content: 'x' } });
    expect(result).toMatchObject({
      status: 'rejected',
      rejection: { reason: expect.stringContaining('no one can approve here') },
    });
    expect(existsSync(join(root, 'from-library.txt'))).toBe(false);
    expect({
      elicited: elicited.length,
      shown: shownInTerminal.length,
      calls: (await http.calls()).calls.length,
    }).toEqual(before);
  });

  it('keeps one approver per origin: a second MCP server on the same executor is refused', () => {
    expect(() => new ToolServer({ executor: rt.executor })).toThrow(
      'calls from "mcp" already have an approver on this executor',
    );
  });
});
