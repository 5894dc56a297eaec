// One function decides every call, by one ladder; the first rung that speaks decides:
//   1. a `blocked` floor: deny (the tool says never run this)
//   2. a hard deny rule: deny
//   3. the last matching rule, when it denies
//   4. an `always-ask` floor: ask
//   5. a remembered approval: allow
//   6. the last matching rule (allow or ask); an `ask-first` call passes over a broad allow (passBroadAllow)
//   7. an `ask-first` floor: ask
//   8. vouched for by the operator: allow, in every mode but `ask`
//   9. the mode, by the call's effect
// Floors (Classification.floor) are the tool's own say, vouchedFor the operator's. docs/policy.md
// says the same for people.
import { MODE_TABLE } from './defaults.js';
import { namesTool, ruleMatches } from './match.js';
import type { RememberedDecisions } from './remembered.js';
import type { Effect } from '../tool.js';
import type { Mode, PolicyCall, PolicyConfig, PolicyDecision, Rule } from './types.js';

function describeRule(rule: Rule, index: number, kind: string): string {
  const parts = [rule.tool ? `tool ${JSON.stringify(rule.tool)}` : 'any tool'];
  if (rule.effect) parts.push(`effect ${JSON.stringify(rule.effect)}`);
  if (rule.command) parts.push(`command "${rule.command}"`);
  if (rule.path) parts.push(`path "${rule.path}"`);
  if (rule.url) parts.push(`url "${rule.url}"`);
  if (rule.args) parts.push(`args ${JSON.stringify(rule.args)}`);
  return `${kind} #${index + 1} (${parts.join(', ')})${rule.reason ? `: ${rule.reason}` : ''}`;
}

export function evaluate(
  call: PolicyCall,
  config: PolicyConfig,
  remembered: RememberedDecisions | undefined,
  roots: readonly string[] = [],
): PolicyDecision {
  const { floor } = call;
  if (floor?.level === 'blocked') return { action: 'deny', source: 'blocked', reason: `blocked: ${floor.reason}` };

  for (let i = 0; i < config.hardDeny.length; i++) {
    const rule = config.hardDeny[i];
    if (ruleMatches(rule, call, roots, false)) {
      return { action: 'deny', source: 'hard-deny', reason: describeRule(rule, i, 'hard deny rule'), ruleIndex: i };
    }
  }

  // Later rules override earlier ones, so user rules appended after defaults win.
  let matched = -1;
  for (let i = config.rules.length - 1; i >= 0; i--) {
    if (ruleMatches(config.rules[i], call, roots)) {
      matched = i;
      break;
    }
  }
  const rule = matched >= 0 ? config.rules[matched] : undefined;
  if (rule?.action === 'deny') {
    return { action: 'deny', source: 'rule', reason: describeRule(rule, matched, 'rule'), ruleIndex: matched };
  }

  if (floor?.level === 'always-ask')
    return { action: 'ask', source: 'always-ask', reason: `always confirmed: ${floor.reason}` };

  const kept = remembered?.find(call.tool, call.subject, call.sessionId, call.effect, call.agentId);
  if (kept) return { action: 'allow', source: 'remembered', reason: `remembered "${kept.scope}" approval` };

  const askFirst = floor?.level === 'ask-first' ? floor.reason : undefined;
  if (askFirst !== undefined && rule?.action === 'allow' && !namesTool(rule, call.tool))
    return passBroadAllow(call, askFirst, config, roots, matched);

  if (rule)
    return { action: rule.action, source: 'rule', reason: describeRule(rule, matched, 'rule'), ruleIndex: matched };

  if (askFirst !== undefined) return { action: 'ask', source: 'ask-first', reason: `asked in every mode: ${askFirst}` };

  if (call.vouchedFor && config.mode !== 'ask')
    return { action: 'allow', source: 'mode', reason: `mode "${config.mode}" runs it: ${call.vouchedFor}` };

  return MODE_DECISIONS[config.mode][call.effect];
}

/**
 * An ask-first call whose last matching rule allows it by a glob (`*`, `mail_*`): such a rule
 * never allows it. The last matching rule that names the tool exactly decides, else it is asked.
 */
function passBroadAllow(
  call: PolicyCall,
  why: string,
  config: PolicyConfig,
  roots: readonly string[],
  broad: number,
): PolicyDecision {
  for (let i = broad - 1; i >= 0; i--) {
    const rule = config.rules[i];
    if (namesTool(rule, call.tool) && ruleMatches(rule, call, roots))
      return { action: rule.action, source: 'rule', reason: describeRule(rule, i, 'rule'), ruleIndex: i };
  }
  const passed = describeRule(config.rules[broad], broad, 'rule');
  return {
    action: 'ask',
    source: 'ask-first',
    reason: `asked in every mode: ${why}; ${passed} does not name ${call.tool}, and only a rule naming it ({"tool": "${call.tool}", "action": "allow"}) allows it`,
  };
}

// Built once: the common case (no rule matched) then allocates nothing.
const MODE_DECISIONS = Object.fromEntries(
  Object.entries(MODE_TABLE).map(([mode, byEffect]) => [
    mode,
    Object.fromEntries(
      Object.entries(byEffect).map(([effect, action]) => [
        effect,
        Object.freeze({
          action,
          source: 'mode',
          reason: `mode "${mode}" says ${action} for ${effect} calls`,
        } as PolicyDecision),
      ]),
    ),
  ]),
) as Record<Mode, Record<Effect, PolicyDecision>>;
