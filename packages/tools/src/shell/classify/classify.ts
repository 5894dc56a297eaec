// A shell script -> core's Classification: the most severe effect of any part, the reason in
// words, a hard deny when some part is catastrophic, every simple command for policy rules,
// and what "always approve" may remember.
import { existsSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import type { Classification } from '@toolbelt/core';
import { readProblem, realLoose, type IsProtected } from './allow/tree.js';
import { Budget, TooLarge, type ClassifyLimits } from './budget.js';
import { parseLoaded } from './parse.js';
import { loadBashParser } from './parser.js';
import { rememberPrefix } from './prefix.js';
import { mostSevere, type Finding } from './types.js';
import { Walker } from './walk.js';

export interface ClassifyOptions {
  /** Absolute directory the script starts in; relative paths are resolved from it. */
  cwd?: string;
  /** For `~` and $HOME. Default: the user's home directory. */
  home?: string;
  /** The workspace roots: reads and writes stay inside them. Default: the cwd alone. */
  roots?: readonly string[];
  /** Paths the workspace protects beyond the name rules (the config file given with --config). */
  isProtected?: IsProtected;
  /** The environment commands will run with. Default: this process's. */
  env?: Readonly<Record<string, string | undefined>>;
  /** File-system facts (injectable for tests). Default: the real file system. */
  exists?(path: string): boolean;
  isDirectory?(path: string): boolean;
  /** Caps on what one classification may cost (budget.ts); over one, the command asks. */
  limits?: Partial<ClassifyLimits>;
  /** The clock the time cap reads (injectable for tests). Default: Date.now. */
  now?: () => number;
  /**
   * A command judged a read will run in the read-only sandbox: no writes, no network, and every
   * secret in the roots and toolbelt's own files shown empty (the sandbox's search for them
   * finished). Then a recursive read needs no walk for secrets first, and a hard-linked file is a
   * file of the read-only view. Only the caller that confines reads may say so.
   */
  readsConfined?: boolean;
}

const MAX_REASONS = 3;

function isDir(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** Classifies a bash script; loads the parser on first use. */
export async function classifyCommand(script: string, opts: ClassifyOptions = {}): Promise<Classification> {
  await loadBashParser();
  return classifyLoaded(script, opts);
}

/**
 * Only an edit of files inside the roots is a `write` (what auto-edit runs without asking). A write
 * whose paths are unknown, outside the roots or protected (secrets, .git, toolbelt's own files)
 * runs where nobody looked: `execute`.
 */
function contained(f: Finding, roots: readonly string[], isProtected?: IsProtected): Finding {
  if (f.effect !== 'write') return f;
  if (!f.paths?.length)
    return { ...f, effect: 'execute', detail: `${f.detail} — what it writes is not known before it runs` };
  for (const p of f.paths) {
    const problem = readProblem(p, roots, 'write', isProtected);
    if (problem) return { ...f, effect: 'execute', detail: `${f.detail} — ${problem.why}` };
  }
  return f;
}

function walk(walker: Walker, script: string, budget: Budget): void {
  const tree = parseLoaded(script, () => budget.expired());
  if (!tree) throw new TooLarge(`parsing it took longer than ${budget.limits.ms} ms`);
  try {
    budget.spendNodes(tree.rootNode.descendantCount);
    walker.visit(tree.rootNode);
    if (tree.rootNode.hasError) walker.parseError = true;
  } finally {
    tree.delete();
  }
}

/** The same, once loadBashParser() has resolved. */
export function classifyLoaded(script: string, opts: ClassifyOptions = {}): Classification {
  const subject = { command: script, commands: [script.trim().replace(/\s+/g, ' ')] };
  if (!script.trim()) return { effect: 'read', reason: 'read: empty command', subject };
  const budget = new Budget(opts.limits, opts.now);
  if (script.length > budget.limits.scriptChars) {
    return {
      effect: 'execute',
      reason: `execute: too large to check: the script is longer than ${budget.limits.scriptChars} characters`,
      subject,
    };
  }
  const roots = (opts.roots ?? (opts.cwd ? [opts.cwd] : [])).map((r) => realLoose(r));
  const walker = new Walker({
    cwd: opts.cwd,
    home: opts.home ?? homedir(),
    roots,
    env: opts.env ?? process.env,
    ...(opts.isProtected ? { isProtected: opts.isProtected } : {}),
    exists: opts.exists ?? existsSync,
    isDirectory: opts.isDirectory ?? isDir,
    budget,
    ...(opts.readsConfined ? { confined: true } : {}),
  });
  try {
    walk(walker, script, budget);
  } catch (err) {
    if (!(err instanceof TooLarge)) throw err;
    return {
      effect: 'execute',
      reason: `execute: too large to check: ${err.message}; it was not judged a read`,
      subject,
    };
  }
  const findings: Finding[] = walker.findings.map((f) => contained(f, roots, opts.isProtected));
  // A script we could not parse may hide anything: never a read.
  if (walker.parseError)
    findings.push({
      effect: 'execute',
      detail: 'the command could not be parsed completely (unbalanced quotes or brackets?)',
    });
  if (findings.length === 0) findings.push({ effect: 'read', detail: 'no commands' });

  const blocked = findings.find((f) => f.blocked);
  const top = blocked ? [blocked] : mostSevere(findings);
  const effect = top[0].effect;
  const details = [...new Set(top.map((f) => f.detail))];
  const more = details.length > MAX_REASONS ? ` and ${details.length - MAX_REASONS} more` : '';
  const warnings = [...new Set(findings.map((f) => f.warning).filter((w): w is string => !!w))];
  const paths = [...new Set(findings.flatMap((f) => f.paths ?? []))];
  const commands = walker.commands.length ? [...new Set(walker.commands)] : subject.commands;

  const out: Classification = {
    effect,
    reason: `${effect}: ${details.slice(0, MAX_REASONS).join('; ')}${more}`,
    subject: { command: script, commands, ...(paths.length ? { paths } : {}) },
  };
  if (blocked?.blocked) out.floor = { level: 'blocked', reason: blocked.blocked };
  if (warnings.length) out.warnings = warnings;
  const single = walker.simple.length === 1 && !walker.structured && !walker.parseError && !blocked;
  if (single && effect !== 'destructive') {
    const prefix = rememberPrefix(walker.simple[0], effect);
    if (prefix && prefix.trim() && prefix.trim() !== '*') out.rememberPrefix = prefix;
  }
  return out;
}
