// Think cycles are at least once: an agent killed mid-cycle (a real SIGKILL of its process) gets the
// same messages again once the cycle's lease runs out; a heartbeat keeps them; done twice is no
// error; the client's cycles() loop acknowledges only what it handled. A short lease keeps it quick.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { putInSpace, startGateway, type Harness } from '../__fixtures__/harness.js';

const LEASE_MS = 400;
let h: Harness;
afterEach(async () => h?.cleanup());

async function start(): Promise<void> {
  h = await startGateway({ config: { gateway: { cycleLeaseMs: LEASE_MS } }, mode: 'yolo' });
  await putInSpace(h.store, ['agent-a']);
  await h.store.spaces.addMember({ spaceId: 'room', memberId: 'husam', kind: 'person', joinedAt: Date.now() });
  for (const text of ['one', 'two']) await h.store.spaces.postText('room', 'husam', text, Date.now());
}

const texts = (messages: { kind: string; message?: { text?: string } }[]) => messages.map((m) => m.message?.text);
const take = async () =>
  (await fetch(`${h.url}/api/agents/agent-a/cycles`, { method: 'POST' })).json() as Promise<{
    cycleId: string | null;
    messages: [];
  }>;

/** An agent in its own process: takes a cycle, prints it, and works on it until it is killed. */
function agentProcess(url: string): ReturnType<typeof spawn> {
  const script = `const r = await fetch(${JSON.stringify(`${url}/api/agents/agent-a/cycles`)}, { method: 'POST' });
    console.log(JSON.stringify(await r.json())); setInterval(() => {}, 1000);`;
  return spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
}

describe('think cycles, at least once', () => {
  it('offers the messages of an agent killed mid-cycle to the next cycle once the lease runs out', async () => {
    await start();
    const agent = agentProcess(h.url);
    const [line] = (await once(agent.stdout!, 'data')) as [Buffer];
    const first = JSON.parse(line.toString()) as { cycleId: string; messages: []; leaseExpiresAt: number };
    expect(texts(first.messages)).toEqual(['one', 'two']);
    agent.kill('SIGKILL');
    await once(agent, 'exit');
    // The control: within the lease the messages are the dead agent's still.
    expect(await take()).toEqual({ cycleId: null, messages: [] });
    await new Promise((r) => setTimeout(r, first.leaseExpiresAt - Date.now() + 20));
    const again = await take();
    expect(texts(again.messages)).toEqual(['one', 'two']);
    expect(again.cycleId).not.toBe(first.cycleId);
    const done = (id: string) =>
      fetch(`${h.url}/api/agents/agent-a/cycles/${id}/done`, { method: 'POST' }).then((r) => r.json());
    expect(await done(again.cycleId!)).toEqual({ cycleId: again.cycleId, acknowledged: 2 });
    expect(await done(again.cycleId!)).toEqual({ cycleId: again.cycleId, acknowledged: 0 });
    expect(await done(first.cycleId)).toEqual({ cycleId: first.cycleId, acknowledged: 0 });
  });

  it("keeps a cycle's messages while the client loop handles it, and gives back a cycle the loop left unhandled", async () => {
    await start();
    const agent = h.client().agent('agent-a');
    for await (const cycle of agent.cycles({ waitMs: 0 })) {
      // Longer than the lease: the loop's heartbeats keep the messages this cycle's.
      await new Promise((r) => setTimeout(r, LEASE_MS * 2));
      expect(await take()).toEqual({ cycleId: null, messages: [] });
      expect(texts(cycle.messages)).toEqual(['one', 'two']);
      break;
    }
    // Left by break, never done: the messages come back after the lease.
    await new Promise((r) => setTimeout(r, LEASE_MS + 50));
    let handled: string[] = [];
    await expect(
      (async () => {
        for await (const cycle of agent.cycles({ waitMs: 0 })) {
          handled = texts(cycle.messages) as string[];
          throw new Error('the agent failed on this cycle');
        }
      })(),
    ).rejects.toThrow(/failed on this cycle/);
    expect(handled).toEqual(['one', 'two']);
    await new Promise((r) => setTimeout(r, LEASE_MS + 50));
    const it = agent.cycles({ waitMs: 0 })[Symbol.asyncIterator]();
    expect(texts((await it.next()).value!.messages)).toEqual(['one', 'two']);
    // Asking for the next cycle acknowledges the one handled: nothing is left.
    const next = it.next();
    await new Promise((r) => setTimeout(r, LEASE_MS + 50));
    expect(await take()).toEqual({ cycleId: null, messages: [] });
    await h.store.spaces.postText('room', 'husam', 'three', Date.now());
    expect(texts((await next).value!.messages)).toEqual(['three']);
    await it.return?.(undefined);
  });
});
