// An agent's inbox: results of its calls that arrived after it stopped waiting.
import type { AckAnswer, InboxList } from '@toolbelt/protocol';
import { requireAgent, requireRole, type Principal } from '../http/auth.js';
import type { Domain } from './context.js';

export async function readInbox(
  d: Domain,
  p: Principal,
  agentId: string,
  q: { after?: number; limit: number; includeAcked: boolean },
): Promise<InboxList> {
  requireRole(p, 'call');
  requireAgent(p, agentId);
  return { messages: await d.store.listInbox(agentId, q) };
}

export async function ackInbox(d: Domain, p: Principal, agentId: string, ids: number[]): Promise<AckAnswer> {
  requireRole(p, 'call');
  requireAgent(p, agentId);
  return { acknowledged: await d.store.ackInbox(agentId, ids, Date.now()) };
}
