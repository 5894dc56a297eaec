// A session id belongs to the agent that first used it. Approvals "for the session" are kept per
// session, so an agent sending another agent's session id would borrow what a person approved for
// that agent: it is refused. An agent's default session (its own id, used when a call sends no
// sessionId) is always its own.
import { ApiError } from '../http/errors.js';
import type { GatewayStore } from '../store/index.js';

/** Owners known to this process; an owner never changes, so a hit needs no database round trip. */
const MAX_KNOWN = 10_000;

export class SessionOwners {
  private readonly known = new Map<string, string>();

  constructor(private readonly store: GatewayStore) {}

  /** Records the session as the agent's on first use; 403 SESSION_NOT_YOURS when it is another agent's. */
  async check(sessionId: string, agentId: string): Promise<void> {
    const owner = this.known.get(sessionId) ?? (await this.claim(sessionId, agentId));
    if (owner === agentId || sessionId === agentId) return;
    throw new ApiError(
      403,
      'SESSION_NOT_YOURS',
      `session "${sessionId}" belongs to another agent; use a session id of your own, or omit sessionId (each agent then has its own session)`,
    );
  }

  private async claim(sessionId: string, agentId: string): Promise<string> {
    const owner = await this.store.claimSession(sessionId, agentId, Date.now());
    if (this.known.size >= MAX_KNOWN) this.known.clear();
    this.known.set(sessionId, owner);
    return owner;
  }
}
