// Call ids the gateway picks when the agent sends none: a random per-process prefix and a
// zero-padded counter. Unique across processes and restarts like a UUID, but the ids of one process
// sort in the order they were made, so the unique index on call_id grows at its right edge (one
// page per commit) instead of taking a write at a random page for every call.
import { randomBytes } from 'node:crypto';

const PREFIX = `tc_${randomBytes(9).toString('base64url')}_`;
let counter = 0;

export function newGatewayCallId(): string {
  return PREFIX + (++counter).toString(36).padStart(9, '0');
}
