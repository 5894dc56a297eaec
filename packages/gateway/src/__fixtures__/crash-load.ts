// Mixed load against a gateway that is killed at random points, and the ledger of what it
// acknowledged: calls it answered, results it accepted, and what the agents got back. The crash
// suite checks the ledger against the store: nothing acknowledged lost, nothing delivered twice.

export interface Ledger {
  /** Internal calls answered 200 success. */
  calls: Set<string>;
  /** External calls whose result the gateway accepted (200, or 409 "already has its result"), with the value. */
  results: Map<string, string>;
  /** What the agent got back in 200 answers, per external call (more than one is a duplicate). */
  got: Map<string, string[]>;
  /** External calls whose result is still to be submitted. */
  toSubmit: string[];
  /** External calls whose agent lost its answer (connection cut): retried with the same callId. */
  toRetry: Set<string>;
  sent: number;
}

export const newLedger = (): Ledger => ({
  calls: new Set(),
  results: new Map(),
  got: new Map(),
  toSubmit: [],
  toRetry: new Set(),
  sent: 0,
});

const post = (url: string, path: string, body: unknown) =>
  fetch(`${url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

/** One external call (or its retry): what the agent gets back goes to the ledger. */
export async function callLookup(url: string, callId: string, l: Ledger): Promise<void> {
  try {
    const res = await post(url, '/api/runs/r1/tool-calls', {
      agentId: 'agent-a',
      name: 'lookup',
      callId,
      input: { q: callId },
    });
    const body = (await res.json()) as { status?: string; structured?: unknown };
    l.toRetry.delete(callId);
    if (res.status === 200 && body.status === 'success')
      l.got.set(callId, [...(l.got.get(callId) ?? []), String(body.structured)]);
    if (res.status === 503) l.toRetry.add(callId);
  } catch {
    l.toRetry.add(callId);
  }
}

/** Submits one result; an answer lost in a crash is sent again later. */
export async function submit(url: string, callId: string, l: Ledger): Promise<void> {
  const value = `v-${callId}`;
  try {
    const res = await post(url, '/api/runs/r1/tool-results', { callId, result: value });
    const body = (await res.json()) as { error?: { message: string } };
    if (res.status === 200 || (res.status === 409 && /already has its result/.test(body.error?.message ?? '')))
      l.results.set(callId, value);
    // Not there (yet): the call may not be recorded yet; a 5xx: the gateway is going down. Sent again later.
    else if (res.status === 404 || res.status >= 500) l.toSubmit.push(callId);
  } catch {
    l.toSubmit.push(callId);
  }
}

async function sinkCall(url: string, callId: string, l: Ledger): Promise<void> {
  try {
    const res = await post(url, '/api/runs/r1/tool-calls', {
      agentId: 'agent-a',
      name: 'sink',
      callId,
      input: { n: callId },
    });
    if (res.status === 200 && ((await res.json()) as { status?: string }).status === 'success') l.calls.add(callId);
  } catch {
    // not acknowledged: the gateway died under it
  }
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Runs `workers` agents and a submitter against `url` until `stop()` says so. */
export async function mixedLoad(
  url: string,
  l: Ledger,
  round: number,
  stop: () => boolean,
  workers = 12,
): Promise<void> {
  const agent = async (w: number) => {
    for (let i = 0; !stop(); i++) {
      const callId = `r${round}-w${w}-${i}`;
      l.sent++;
      if (Math.random() < 0.7) await sinkCall(url, callId, l);
      else {
        l.toSubmit.push(callId);
        await callLookup(url, callId, l);
      }
    }
  };
  const sending = new Set<Promise<unknown>>();
  const submitter = async () => {
    while (!stop()) {
      const callId = l.toSubmit.shift();
      if (!callId) {
        await pause(5);
        continue;
      }
      // Some results come while the call waits (inline), some after it timed out (inbox).
      const p = pause(Math.random() * 300).then(async () => {
        if (stop()) l.toSubmit.push(callId);
        else await submit(url, callId, l);
      });
      sending.add(p);
      void p.finally(() => sending.delete(p));
    }
  };
  await Promise.all([...Array.from({ length: workers }, (_, w) => agent(w)), submitter()]);
  await Promise.all([...sending]);
}
