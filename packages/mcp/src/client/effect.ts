// What a remote tool's MCP annotations mean for our policy. The hints are the server's claims, so
// they may only make a call stricter: `minEffect` in the config is a floor no hint lowers.
import type { Effect } from '@toolbelt/core';

export interface RemoteAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

const RANK: Record<Effect, number> = { read: 0, write: 1, execute: 2, destructive: 3 };

export function stricter(a: Effect, b: Effect): Effect {
  return RANK[a] >= RANK[b] ? a : b;
}

/**
 * destructiveHint -> destructive, readOnlyHint -> read, otherwise write. A tool that claims both
 * read-only and destructive is taken as destructive.
 */
export function effectFromAnnotations(a: RemoteAnnotations | undefined, minEffect: Effect = 'read'): Effect {
  const claimed: Effect = a?.destructiveHint === true ? 'destructive' : a?.readOnlyHint === true ? 'read' : 'write';
  return stricter(claimed, minEffect);
}
