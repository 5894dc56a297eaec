// Matching one rule against one call. Deny and ask rules match when any command or path does;
// allow rules only when all of them do, so `ls && rm -rf x` is never allowed by an `ls` rule.
import picomatch from 'picomatch';
import type { ArgMatcher, PolicyCall, Rule } from './types.js';
import type { Effect } from '../tool.js';

const globCache = new Map<string, (s: string) => boolean>();
function glob(pattern: string): (s: string) => boolean {
  let m = globCache.get(pattern);
  if (!m) {
    m = picomatch(pattern, { dot: true });
    globCache.set(pattern, m);
  }
  return m;
}

/** Word-wise prefix: `git push` matches `git push origin` but not `git pushx`. A trailing ` *` is allowed. */
export function commandHasPrefix(command: string, prefix: string): boolean {
  const p = normalizeCommand(prefix.endsWith(' *') ? prefix.slice(0, -2) : prefix);
  const c = normalizeCommand(command);
  if (p === '*' || p === '') return true;
  return c === p || c.startsWith(p + ' ');
}

export function normalizeCommand(command: string): string {
  return command.trim().replace(/\s+/g, ' ');
}

export function pathUnder(path: string, dir: string): boolean {
  const d = dir.endsWith('/') ? dir.slice(0, -1) : dir;
  return path === d || path.startsWith(d + '/');
}

function toolMatches(rule: Rule, tool: string): boolean {
  if (rule.tool === undefined) return true;
  const patterns = typeof rule.tool === 'string' ? [rule.tool] : rule.tool;
  return patterns.some((p) => p === tool || glob(p)(tool));
}

/** Whether the rule names this tool exactly: its pattern is the name, or a list holding the name. */
export function namesTool(rule: Rule, tool: string): boolean {
  return typeof rule.tool === 'string' ? rule.tool === tool : (rule.tool ?? []).includes(tool);
}

function effectMatches(rule: Rule, effect: Effect): boolean {
  if (rule.effect === undefined) return true;
  return typeof rule.effect === 'string' ? rule.effect === effect : rule.effect.includes(effect);
}

function quantify<T>(items: readonly T[] | undefined, all: boolean, test: (item: T) => boolean): boolean {
  if (!items || items.length === 0) return false;
  return all ? items.every(test) : items.some(test);
}

function pathMatches(pattern: string, path: string, roots: readonly string[]): boolean {
  if (pattern.startsWith('/')) return glob(pattern)(path);
  const m = glob(pattern);
  for (const root of roots) {
    if (pathUnder(path, root)) {
      const rel = path.slice(root.length).replace(/^\/+/, '');
      if (m(rel)) return true;
    }
  }
  return false;
}

function argMatches(matcher: ArgMatcher, value: unknown): boolean {
  if (matcher !== null && typeof matcher === 'object') {
    if (value === undefined) return false;
    try {
      return new RegExp(matcher.pattern).test(typeof value === 'string' ? value : JSON.stringify(value));
    } catch {
      return false;
    }
  }
  return matcher === value;
}

/** `all`: every command/path must match (allow rules); otherwise any may (deny and ask rules). */
export function ruleMatches(
  rule: Rule,
  call: PolicyCall,
  roots: readonly string[],
  all = rule.action === 'allow',
): boolean {
  if (!toolMatches(rule, call.tool) || !effectMatches(rule, call.effect)) return false;
  const subject = call.subject;
  if (rule.command !== undefined && !quantify(subject?.commands, all, (c) => commandHasPrefix(c, rule.command!)))
    return false;
  if (rule.path !== undefined && !quantify(subject?.paths, all, (p) => pathMatches(rule.path!, p, roots))) return false;
  if (rule.url !== undefined && !quantify(subject?.urls, all, (u) => glob(rule.url!)(u))) return false;
  if (rule.args) {
    const input = (call.input ?? {}) as Record<string, unknown>;
    for (const [key, matcher] of Object.entries(rule.args)) {
      if (!argMatches(matcher, input[key])) return false;
    }
  }
  return true;
}
