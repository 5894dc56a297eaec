// The policy object the executor holds: config + remembered decisions + roots for path rules.
import type { RememberTarget } from '../approval.js';
import { DEFAULT_HARD_DENY, DEFAULT_MODE } from './defaults.js';
import { evaluate } from './evaluate.js';
import { namesTool, ruleMatches } from './match.js';
import { RememberedDecisions } from './remembered.js';
import {
  canonicalMode,
  MODES,
  type DecisionStore,
  type Mode,
  type ModeAlias,
  type PolicyCall,
  type PolicyConfig,
  type PolicyDecision,
  type Rule,
} from './types.js';

export interface PolicyOptions {
  /** `none` and `all`, the classic API's modes, are read as `ask` and `yolo`. */
  mode?: Mode | ModeAlias;
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
      mode: modeOf(opts.mode ?? DEFAULT_MODE),
      rules: [...(opts.rules ?? [])],
      hardDeny: [...DEFAULT_HARD_DENY, ...(opts.hardDeny ?? [])],
    };
    this.remembered = new RememberedDecisions(opts.store);
    this.roots = opts.roots ?? [];
  }

  get mode(): Mode {
    return this.config.mode;
  }

  set mode(mode: Mode | ModeAlias) {
    this.config.mode = modeOf(mode);
  }

  /**
   * Undefined when the saved "always" approvals are loaded, else their load. The executor awaits it
   * before its first decision; call it yourself only to use decide() without an executor.
   */
  ready(): Promise<void> | undefined {
    return this.remembered.ready();
  }

  /** Remembered approvals count once loaded: see ready(). */
  decide(call: PolicyCall): PolicyDecision {
    return evaluate(call, this.config, this.remembered, this.roots);
  }

  /** Keeps a person's approval; with an agent, for that agent's calls only. */
  remember(
    target: RememberTarget,
    scope: 'session' | 'always',
    sessionId: string,
    effect?: PolicyCall['effect'],
    agentId?: string,
  ): Promise<void> {
    return this.remembered.add(target, scope, sessionId, effect, agentId);
  }

  /**
   * Whether a rule opens a sensitive file (.env, keys) for one tool. Only rules that name the tool
   * exactly count; the last of them whose path matches decides, where an allow counts only if its
   * path spells out the secret's name (`src/.env`, `config/id_rsa`, `certs/*.pem`) and broader
   * allows are passed over. So `{"tool":"write_file","path":"src/**"}` opens nothing: a write rule
   * never lets another tool read secrets, and a broad glob never reaches files nobody meant.
   */
  allowsSensitivePath(path: string, secret: { tool?: string; name: string }): boolean {
    const tool = secret.tool;
    if (tool === undefined) return false;
    const name = secret.name.toLowerCase();
    for (let i = this.config.rules.length - 1; i >= 0; i--) {
      const rule = this.config.rules[i];
      if (rule.path === undefined || rule.command !== undefined || rule.url !== undefined || rule.args !== undefined)
        continue;
      if (!namesTool(rule, tool)) continue;
      if (
        !ruleMatches(
          { path: rule.path, action: rule.action },
          { tool, effect: 'read', input: {}, subject: { paths: [path] }, sessionId: '' },
          this.roots,
          false,
        )
      )
        continue;
      if (rule.action !== 'allow') return false;
      if (rule.path.toLowerCase().includes(name)) return true;
    }
    return false;
  }
}

function modeOf(mode: string): Mode {
  const canonical = canonicalMode(mode);
  if (!canonical) throw new Error(`unknown mode "${mode}": use one of ${MODES.join(', ')} (or none = ask, all = yolo)`);
  return canonical;
}
