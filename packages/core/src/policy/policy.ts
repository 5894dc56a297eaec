// The policy object the executor holds: config + remembered decisions + roots for path rules.
import type { RememberTarget } from '../approval.js';
import { DEFAULT_HARD_DENY, DEFAULT_MODE } from './defaults.js';
import { evaluate } from './evaluate.js';
import { RememberedDecisions } from './remembered.js';
import type { DecisionStore, Mode, PolicyCall, PolicyConfig, PolicyDecision, Rule } from './types.js';

export interface PolicyOptions {
  mode?: Mode;
  rules?: Rule[];
  /** Added to the default hard denies, which always apply. */
  hardDeny?: Rule[];
  /** Where "always" approvals are saved; memory only when absent. */
  store?: DecisionStore;
  /** Workspace roots, for relative path globs in rules. */
  roots?: readonly string[];
}

export class Policy {
  readonly config: PolicyConfig;
  readonly remembered: RememberedDecisions;
  readonly roots: readonly string[];

  constructor(opts: PolicyOptions = {}) {
    this.config = {
      mode: opts.mode ?? DEFAULT_MODE,
      rules: [...(opts.rules ?? [])],
      hardDeny: [...DEFAULT_HARD_DENY, ...(opts.hardDeny ?? [])],
    };
    this.remembered = new RememberedDecisions(opts.store);
    this.roots = opts.roots ?? [];
  }

  get mode(): Mode {
    return this.config.mode;
  }

  set mode(mode: Mode) {
    this.config.mode = mode;
  }

  decide(call: PolicyCall): PolicyDecision {
    return evaluate(call, this.config, this.remembered, this.roots);
  }

  remember(target: RememberTarget, scope: 'session' | 'always', sessionId: string): Promise<void> {
    return this.remembered.add(target, scope, sessionId);
  }

  /** True when an allow rule names this path explicitly: lets the workspace guard open a sensitive file. */
  allowsSensitivePath(tool: string, path: string, effect: PolicyCall['effect']): boolean {
    const decision = evaluate({ tool, effect, input: {}, subject: { paths: [path] }, sessionId: '' }, { ...this.config, mode: 'ask' }, undefined, this.roots);
    return decision.source === 'rule' && decision.action === 'allow' && this.config.rules[decision.ruleIndex!]?.path !== undefined;
  }
}
