// "The SDK detects the tool call via SSE": run a declared external/space tool here and
// submit its result to the gateway.
import type { GatewayClient } from './client.js';
import { runWorker, type Worker, type WorkerOptions } from './worker.js';

export interface PendingCall {
  callId: string;
  runId: string;
  agentId: string;
  tool: string;
  input: unknown;
}

/** Returns the result (any JSON); a thrown error is submitted as the call's error message. */
export type ToolHandler = (input: any, call: PendingCall) => unknown | Promise<unknown>;

export function onToolCall(client: GatewayClient, name: string, handler: ToolHandler, o: WorkerOptions = {}): Worker {
  const w = runWorker(
    client,
    { ...o, types: ['pending.created'] },
    (e) => (e.type === 'pending.created' && e.tool === name ? e.callId : undefined),
    async () => {
      const { calls } = await client.calls({
        tool: name,
        status: ['waiting', 'pending'],
        limit: 500,
        ...(o.runId ? { runId: o.runId } : {}),
      });
      for (const c of calls) {
        if (o.agentIds && !o.agentIds.includes(c.agentId)) continue;
        if (!w.seen.has(c.callId))
          w.track(handle({ callId: c.callId, runId: c.runId, agentId: c.agentId, tool: c.tool, input: c.input }));
      }
    },
    async (e) => {
      if (e.type !== 'pending.created') return;
      await handle({ callId: e.callId, runId: e.runId ?? '', agentId: e.agentId ?? '', tool: e.tool, input: e.input });
    },
  );
  async function handle(call: PendingCall): Promise<void> {
    if (w.seen.has(call.callId)) return;
    w.seen.add(call.callId);
    let outcome: { result: unknown } | { error: string };
    try {
      outcome = { result: await handler(call.input, call) };
    } catch (err) {
      outcome = { error: err instanceof Error ? err.message : String(err) };
    }
    if ('error' in outcome) await client.submitError(call.runId, call.callId, outcome.error);
    else await client.submitResult(call.runId, call.callId, outcome.result);
  }
  return { stop: w.stop, ready: w.ready };
}
