// An agent's inbox on the wire: results that came after it stopped waiting, and messages posted in
// its spaces.
import type { SpaceMessage } from './spaces.js';

interface InboxBase {
  id: number;
  agentId: string;
  createdAt: number;
  ackedAt?: number;
  /** The think cycle that took it (POST /api/agents/:agentId/cycles). */
  cycleId?: string;
}

/** A result that arrived after its agent stopped waiting (or an expiry notice). */
export interface ToolResultInboxMessage extends InboxBase {
  kind: 'tool_result';
  runId: string;
  callId: string;
  tool: string;
  /** The submitted result, or an error ("expired", or what the executor reported). */
  result?: unknown;
  error?: string;
}

/** A text message another member posted in a space this agent is in. */
export interface SpaceInboxMessage extends InboxBase {
  kind: 'message';
  spaceId: string;
  message: SpaceMessage;
}

/** What happened while the agent was busy: GET /api/agents/:agentId/inbox, and each think cycle. */
export type InboxMessage = ToolResultInboxMessage | SpaceInboxMessage;
