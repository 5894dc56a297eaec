// "Always approve" kept in the gateway's store: a DecisionStore for core's Policy.
import { DEFAULT_HARD_DENY, Policy, type DecisionStore, type Remembered } from '@toolbelt/core';
import type { GatewayStore } from './store/index.js';

export function storeDecisions(store: GatewayStore): DecisionStore {
  return {
    load: () => store.loadRemembered(),
    save: (entry: Remembered) => store.saveRemembered(entry),
  };
}

/**
 * The same policy (mode, rules, hard denies, roots) with its remembered decisions kept in the
 * gateway store; the executor loads them before its first decision.
 */
export async function policyWithStore(base: Policy, store: GatewayStore): Promise<Policy> {
  return new Policy({
    mode: base.mode,
    rules: base.config.rules,
    hardDeny: base.config.hardDeny.filter((r) => !DEFAULT_HARD_DENY.includes(r)),
    store: storeDecisions(store),
    roots: base.roots,
  });
}
