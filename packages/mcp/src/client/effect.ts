// What a remote tool's MCP annotations mean for our policy. The hints are the server's claims, so
// by default they may only make a call stricter: a read-only claim counts only from a server the
// config trusts with `trust: "read"`, and `minEffect` is a floor no hint lowers.
import type { Effect } from '@toolbelt/core';

export interface RemoteAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

export interface RemoteTrust {
  /** "read": the server's readOnlyHint is believed (config `trust`). */
  trust?: 'read';
  /** The least effect any of the server's tools has (config `minEffect`). */
  minEffect?: Effect;
}

const RANK: Record<Effect, number> = { read: 0, write: 1, execute: 2, destructive: 3 };

export function stricter(a: Effect, b: Effect): Effect {
  return RANK[a] >= RANK[b] ? a : b;
}

/**
 * destructiveHint -> destructive; readOnlyHint -> read, from a trusted server only; anything else
 * -> execute: what a remote tool changes is not known to be an edit inside the workspace, so it is
 * never a `write` that auto-edit would run unasked. Read-only *and* destructive is destructive.
 */
export function effectFromAnnotations(a: RemoteAnnotations | undefined, trust: RemoteTrust = {}): Effect {
  const claimed: Effect =
    a?.destructiveHint === true
      ? 'destructive'
      : a?.readOnlyHint === true && trust.trust === 'read'
        ? 'read'
        : 'execute';
  return stricter(claimed, trust.minEffect ?? 'read');
}
