// Walks a bash syntax tree and classifies every simple command and redirection in it: in
// pipelines, lists, subshells, substitutions, function bodies, and scripts passed to bash -c.
import { posix } from 'node:path';
import type { Node } from 'web-tree-sitter';
import { sensitiveReason } from '../../workspace/sensitive.js';
import { handlerFor } from './commands/index.js';
import { parseLoaded } from './parser.js';
import { isDevice, isSink, normalizeAbs } from './paths.js';
import { describe, severity, type Finding, type Scope, type SimpleCommand } from './types.js';
import { expandBraces, literalWord, render, resolveWord, type Word } from './words.js';

export interface WalkOptions {
  cwd: string | undefined;
  home: string;
  exists(path: string): boolean;
  isDirectory(path: string): boolean;
}

/** Setting these for a command, or for the rest of the script, can make harmless commands run other code. */
const RISKY_VARS = /^(LD_[A-Z_]+|DYLD_[A-Z_]+|PATH|BASH_ENV|ENV|SHELLOPTS|BASHOPTS|PS4|PROMPT_COMMAND|IFS|GIT_[A-Z_]+|PAGER|MANPAGER|SYSTEMD_PAGER|EDITOR|VISUAL|LESSOPEN|LESSCLOSE|NODE_OPTIONS|PYTHONPATH|PYTHONSTARTUP|PERL5OPT|PERL5LIB|RUBYOPT|JAVA_TOOL_OPTIONS|BROWSER|SSH_ASKPASS|SUDO_ASKPASS)$/;
const SYSTEM_BIN = /^\/(usr\/)?(local\/)?s?bin\/[^/]+$/;
const MAX_DEPTH = 4;
const CONTROL = new Set(['if_statement', 'while_statement', 'for_statement', 'c_style_for_statement', 'case_statement']);
const STRUCTURAL = new Set([...CONTROL, 'list', 'compound_statement', 'command_substitution', 'process_substitution', 'negated_command', 'heredoc_body']);
/** Commands whose arguments are not files they read. */
const NOT_READERS = new Set(['echo', 'printf', 'test', '[', 'basename', 'dirname', 'cd', 'pushd', 'type', 'which', 'command', 'sleep', 'seq', 'true', 'false', 'kill', 'read']);
const DOWNLOADERS = new Set(['curl', 'wget', 'fetch', 'http']);
const INTERPRETERS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'python', 'python3', 'perl', 'ruby', 'node', 'php', 'sudo']);
const TRUNCATING = new Set(['>', '>|', '&>', '>&']);
const INPUT = new Set(['<', '<&', '<&-', '<<', '<<-', '<<<']);

export class Walker {
  readonly findings: Finding[] = [];
  /** Every simple command, normalized, plus one `> file` entry per output redirection to a file. */
  readonly commands: string[] = [];
  /** Simple commands seen; the first is kept for "always approve" prefixes. */
  simple: SimpleCommand[] = [];
  /** Anything beyond one simple command: pipes, lists, substitutions, control flow, file redirections. */
  structured = false;
  parseError = false;
  private cwd: string | undefined;
  private depth = 0;
  private readonly functions = new Set<string>();
  private readonly scope: Scope;

  constructor(private readonly opts: WalkOptions) {
    this.cwd = opts.cwd;
    const self = this;
    this.scope = {
      home: opts.home,
      resolve: (w) => self.resolve(w),
      exists: (p) => opts.exists(p),
      isDirectory: (p) => opts.isDirectory(p),
      argv: (words) => self.runArgv(words),
      script: (text) => self.nested(text),
      chdir: (w) => {
        self.cwd = w ? self.resolve(w) : undefined;
      },
    };
  }

  /** Parse errors are read once from the root (`hasError`), not node by node. */
  visit(node: Node): void {
    switch (node.type) {
      case 'comment':
        return;
      case 'command':
        this.findings.push(...this.command(node));
        return;
      case 'file_redirect':
        this.redirect(node);
        return;
      case 'function_definition':
        this.structured = true;
        this.functionDefinition(node);
        return;
      case 'subshell':
        this.structured = true;
        this.isolated(node, false);
        return;
      case 'pipeline': {
        this.structured = true;
        const from = this.simple.length;
        this.isolated(node, true);
        this.pipedCode(this.simple.slice(from));
        return;
      }
      case 'variable_assignment':
        this.commands.push(node.text);
        this.structured = true;
        this.assignment(node, node.text);
        return;
      case 'declaration_command':
      case 'unset_command':
      case 'test_command':
        this.builtinStatement(node);
        return;
    }
    if (STRUCTURAL.has(node.type)) this.structured = true;
    if (CONTROL.has(node.type)) {
      const before = this.cwd;
      this.children(node);
      if (this.cwd !== before) this.cwd = undefined; // a cd that may or may not have run
      return;
    }
    this.children(node);
  }

  private children(node: Node): void {
    for (const child of node.children) if (child) this.visit(child);
  }

  /** Subshells and pipeline parts run in their own process: a cd inside does not leak out. */
  private isolated(node: Node, eachChild: boolean): void {
    const before = this.cwd;
    for (const child of node.children) {
      if (!child) continue;
      this.visit(child);
      if (eachChild) this.cwd = before;
    }
    this.cwd = before;
  }

  private command(node: Node): Finding[] {
    const words: Word[] = [];
    const assignments: Word[] = [];
    for (let i = 0; i < node.childCount; i++) {
      const child = node.child(i);
      if (!child) continue;
      const field = node.fieldNameForChild(i);
      if (child.type === 'variable_assignment') {
        this.children(child);
        assignments.push(this.assignmentWord(child));
      } else if (field === 'name' || field === 'argument') {
        this.visit(child);
        words.push(resolveWord(field === 'name' ? (child.firstChild ?? child) : child, this.opts.home));
      } else if (field === 'redirect' || child.type.endsWith('redirect') || child.type === 'ERROR') this.visit(child);
    }
    return this.runArgv(words, assignments);
  }

  private assignmentWord(node: Node): Word {
    const name = node.childForFieldName('name')?.text ?? '';
    const valueNode = node.childForFieldName('value');
    const value = valueNode ? resolveWord(valueNode, this.opts.home) : literalWord('');
    return { value: `${name}=${value.value}`, pattern: `${name}=${value.pattern}`, static: value.static, source: node.text };
  }

  /** Classifies an argv (after brace expansion) and records it as a command of the script. */
  runArgv(raw: Word[], prefix: Word[] = []): Finding[] {
    const assignments = [...prefix];
    let start = 0;
    while (start < raw.length && raw[start].static && /^[A-Za-z_][A-Za-z0-9_]*=/.test(raw[start].value)) assignments.push(raw[start++]);
    const words = raw.slice(start).flatMap(expandBraces);
    const tokens = [...assignments, ...words].map(render);
    const text = tokens.join(' ');
    if (!words.length) return assignments.flatMap((a) => this.riskyVar(a.value.split('=')[0], text));
    this.commands.push(text);
    const nameWord = words[0];
    const cmd: SimpleCommand = { name: nameWord.value, args: words.slice(1), text, tokens, lead: assignments.length };
    this.simple.push(cmd);
    const findings = assignments.flatMap((a) => this.riskyVar(a.value.split('=')[0], text));
    if (!nameWord.static) return [...findings, { effect: 'execute', detail: describe(cmd, 'the command name is computed') }];
    let name = nameWord.value;
    if (SYSTEM_BIN.test(name)) name = posix.basename(name);
    else if (name.includes('/')) return [...findings, { effect: 'execute', detail: describe(cmd, `runs ${name}`) }];
    cmd.name = name;
    if (this.functions.has(name)) return [...findings, { effect: 'read', detail: describe(cmd, 'calls a function defined in this script') }];
    const handler = handlerFor(name);
    const own = handler ? handler(cmd, this.scope) : [{ effect: 'execute' as const, detail: describe(cmd) }];
    findings.push(...own);
    if (!NOT_READERS.has(name) && own.every((f) => f.effect === 'read')) findings.push(...this.sensitiveReads(cmd));
    return findings;
  }

  /** `curl ... | sh`: code from the network runs unseen. */
  private pipedCode(parts: SimpleCommand[]): void {
    const download = parts.findIndex((c) => DOWNLOADERS.has(c.name));
    if (download < 0) return;
    const runner = parts.slice(download + 1).find((c) => INTERPRETERS.has(c.name) && !c.args.some((a) => a.value === '-c' || (!a.value.startsWith('-') && a.value !== '-')));
    if (runner) {
      this.findings.push({ effect: 'execute', detail: `${parts[download].name} | ${runner.name}`, warning: `runs code downloaded by ${parts[download].name} without showing it first` });
    }
  }

  private riskyVar(name: string, text: string): Finding[] {
    return RISKY_VARS.test(name) ? [{ effect: 'execute', detail: `${text} (sets ${name}, which can make commands run other code)` }] : [];
  }

  /** A read of .env or a private key is not a plain read: it asks. */
  private sensitiveReads(cmd: SimpleCommand): Finding[] {
    for (const w of cmd.args) {
      if (!w.static || w.value.startsWith('-')) continue;
      const abs = this.resolve(w) ?? posix.join('/', w.value);
      const why = sensitiveReason(abs, 'read');
      if (why) {
        this.protectedRead(render(w));
        return [{ effect: 'execute', detail: describe(cmd, `reads ${w.source}: ${why}`) }];
      }
    }
    return [];
  }

  /**
   * A read of a protected file is listed as its own `< path` entry, like a redirection: an allow
   * rule or remembered prefix for the command (`cat`) does not cover it.
   */
  private protectedRead(path: string): void {
    this.structured = true;
    this.commands.push(`< ${path}`);
  }

  private assignment(node: Node, text: string): void {
    this.children(node);
    const name = node.childForFieldName('name')?.text ?? '';
    this.findings.push(...this.riskyVar(name, text));
  }

  /** export/declare/local/unset/[[ ]]: shell-internal, read unless they set a risky variable. */
  private builtinStatement(node: Node): void {
    const text = node.text.replace(/\s+/g, ' ');
    this.commands.push(text);
    this.structured = true;
    const before = this.findings.length;
    for (const child of node.children) {
      if (!child) continue;
      if (child.type === 'variable_assignment') this.assignment(child, text);
      else this.visit(child);
    }
    if (this.findings.length === before) this.findings.push({ effect: 'read', detail: text.length > 120 ? `${text.slice(0, 119)}…` : text });
  }

  private redirect(node: Node): void {
    let op = '';
    let dest: Node | null = null;
    for (let i = 0; i < node.childCount; i++) {
      const child = node.child(i)!;
      const field = node.fieldNameForChild(i);
      if (field === 'destination') dest = child;
      else if (!child.isNamed && field !== 'descriptor') op = child.type;
    }
    if (!dest) {
      this.children(node);
      return;
    }
    this.visit(dest);
    const word = resolveWord(dest, this.opts.home);
    if (INPUT.has(op)) {
      const abs = this.resolve(word);
      const why = abs && sensitiveReason(abs, 'read');
      if (why) {
        this.protectedRead(render(word));
        this.findings.push({ effect: 'execute', detail: `${op} ${render(word)} (reads a protected file: ${why})` });
      }
      return;
    }
    if ((op === '>&' || op === '<&') && /^(\d+|-)$/.test(word.value)) return; // 2>&1, >&-: descriptors, not files
    const abs = this.resolve(word);
    if (abs && isSink(abs)) return;
    const entry = `${op} ${render(word)}`;
    this.structured = true;
    this.commands.push(entry);
    const truncating = TRUNCATING.has(op);
    if (!abs) {
      this.findings.push(truncating
        ? { effect: 'destructive', detail: `${entry} (may truncate a file whose path is not known before it runs)` }
        : { effect: 'write', detail: `${entry} (appends to a file whose path is not known before it runs)` });
      return;
    }
    if (isDevice(abs)) {
      this.findings.push({ effect: 'destructive', detail: `${entry} (writes to a disk)`, blocked: `${entry} writes to the block device ${abs}` });
      return;
    }
    if (truncating && this.opts.exists(abs) && !this.opts.isDirectory(abs)) {
      this.findings.push({ effect: 'destructive', detail: `${entry} (truncates an existing file)`, paths: [abs] });
      return;
    }
    this.findings.push({ effect: 'write', detail: `${entry} (${op.includes('>>') ? 'appends to' : 'writes'} a file)`, paths: [abs] });
  }

  private functionDefinition(node: Node): void {
    const name = node.childForFieldName('name')?.text ?? '';
    const body = node.childForFieldName('body');
    this.functions.add(name);
    if (!body) return;
    const calls = body.descendantsOfType('command').filter((c) => c?.childForFieldName('name')?.text === name).length;
    const background = /(^|[^&<>|])&($|[^&>])/.test(body.text);
    if (calls >= 2 || (calls === 1 && background)) {
      const detail = `${name}() { … } (fork bomb)`;
      this.findings.push({ effect: 'destructive', detail, blocked: `${name}() is a fork bomb: it calls itself in parallel until the machine runs out of processes` });
    }
    const before = this.cwd;
    this.visit(body);
    this.cwd = before;
  }

  /** A script given as a string (bash -c, eval, trap): parsed and walked in place. */
  private nested(text: string): Finding[] {
    this.structured = true;
    if (this.depth >= MAX_DEPTH) return [{ effect: 'execute', detail: 'shell scripts nested too deeply to check' }];
    const tree = parseLoaded(text);
    const before = this.findings.length;
    this.depth++;
    try {
      if (tree.rootNode.hasError) this.parseError = true;
      this.visit(tree.rootNode);
    } finally {
      this.depth--;
      tree.delete();
    }
    const inner = this.findings.splice(before);
    return inner.length ? inner : [{ effect: 'read', detail: 'an empty script' }];
  }

  private resolve(w: Word): string | undefined {
    if (!w.static) return undefined;
    if (w.value.startsWith('/')) return normalizeAbs(w.value);
    return this.cwd === undefined ? undefined : normalizeAbs(posix.join(this.cwd, w.value));
  }
}

export function mostSevere(findings: Finding[]): Finding[] {
  const top = Math.max(...findings.map((f) => severity(f.effect)));
  return findings.filter((f) => severity(f.effect) === top);
}
