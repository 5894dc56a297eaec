// Requests a connection makes while it (re)connects: every page of tools/list, under a deadline.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Tool as RemoteTool } from '@modelcontextprotocol/sdk/types.js';

/** The server's whole tool list, following its cursor across pages. */
export async function listAllTools(client: Client, timeoutMs: number): Promise<RemoteTool[]> {
  const tools: RemoteTool[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.listTools(cursor ? { cursor } : {}, { timeout: timeoutMs });
    tools.push(...page.tools);
    cursor = page.nextCursor;
  } while (cursor);
  return tools;
}

/** `work`, or a rejection naming connectTimeoutMs once `ms` have passed. */
export function withDeadline<T>(work: Promise<T>, ms: number, what = 'no answer within'): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`${what} ${ms} ms${what === 'no answer within' ? ' (connectTimeoutMs)' : ''}`)),
      ms,
    );
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}

/** Resolves when one of `waiters` is called (a restart finished), on abort, or after `ms`. */
export function untilWoken(waiters: Set<() => void>, signal: AbortSignal, ms: number): Promise<void> {
  return new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(t);
      signal.removeEventListener('abort', done);
      waiters.delete(done);
      resolve();
    };
    const t = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
    waiters.add(done);
  });
}
