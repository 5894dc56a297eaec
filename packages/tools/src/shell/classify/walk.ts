// Walks a bash syntax tree and classifies every simple command and redirection in it: in
// pipelines, lists, subshells, substitutions, function bodies, and scripts passed to bash -c.
// The walk tracks where it is (cwd, functions, nesting); the verdicts come from judge-command.ts,
// redirects.ts, statements.ts and hazards.ts.
import { posix } from 'node:path';
import type { Node } from 'web-tree-sitter';
import type { IsProtected, WalkMode } from './allow/tree.js';
import { TooLarge, type Budget } from './budget.js';
import { globDirectoryProblem, globOption, wordReadProblem, type WordContext } from './allow/word.js';
import { assignProblem } from './allow/variables.js';
import { forkBomb, pipedCode } from './hazards.js';
import { judgeCommand } from './judge-command.js';
import { integerLiteral } from './literals.js';
import { nodeKindProblem } from './node-kinds.js';
import { parseLoaded } from './parse.js';
import { physicalPath } from './paths.js';
import { judgeRedirect } from './redirects.js';
import { assignedName, evaluationProblem, statementProblem } from './statements.js';
import { describe, type Finding, type Scope, type SimpleCommand } from './types.js';
import { bodySets, combinations, loopValues, type Bindings } from './loops.js';
import { namesPrinted, passesNames, type Names } from './producers.js';
import { expandBraces, literalWord, render, resolveWord, type Known, type Word } from './words.js';

export interface WalkOptions {
  cwd: string | undefined;
  home: string;
  /** Real paths of the workspace roots: reads stay inside them. */
  roots: readonly string[];
  /** The environment commands will get: a variable already there has a meaning. */
  env: Readonly<Record<string, string | undefined>>;
  exists(path: string): boolean;
  isDirectory(path: string): boolean;
  isProtected?: IsProtected;
  /** What the walk may cost; it throws TooLarge when spent. */
  budget: Budget;
  /** Reads run read-only in the sandbox with the roots' secrets hidden (ClassifyOptions.readsConfined). */
  confined?: boolean;
}
const SYSTEM_BIN = /^\/(usr\/)?(local\/)?s?bin\/[^/]+$/;
const MAX_DEPTH = 4;
const CONTROL = new Set([
  'if_statement',
  'while_statement',
  'for_statement',
  'c_style_for_statement',
  'case_statement',
]);
const STRUCTURAL = new Set([
  ...CONTROL,
  'list',
  'compound_statement',
  'command_substitution',
  'process_substitution',
  'negated_command',
  'heredoc_body',
]);

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
  /** Set while a pipeline part after a names producer is walked (producers.ts). */
  private stdinNames: Names | undefined;
  /** `for` variables bound to the names a producer prints (`for f in $(find …)`). */
  private readonly loopNamed = new Map<string, Word>();
  /** `for` variables whose loop body is being walked, with the values they take. */
  private readonly bindings: Bindings = new Map();
  /** The scripts being walked: the command's, then each `bash -c` or `eval` string inside it. */
  private readonly scripts: Node[] = [];
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
      get cwd() {
        return self.cwd;
      },
      roots: opts.roots,
      confined: !!opts.confined,
      get stdinNames() {
        return self.stdinNames;
      },
      readProblem: (w, walk) => self.readProblem(w, walk),
      assignProblem: (name, exported) => assignProblem(name, exported, opts.env),
    };
  }

  /** Parse errors are read once from the root (`hasError`), not node by node. */
  visit(node: Node): void {
    this.opts.budget.tick();
    if (node.isNamed) {
      const unknown = nodeKindProblem(node.type);
      if (unknown) return this.unless(unknown);
    }
    switch (node.type) {
      case 'comment':
        return;
      case 'program':
        this.scripts.push(node);
        try {
          this.children(node);
        } finally {
          this.scripts.pop();
        }
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
        this.pipeline(node);
        const piped = pipedCode(this.simple.slice(from));
        if (piped) this.findings.push(piped);
        return;
      }
      case 'variable_assignment':
        this.commands.push(node.text);
        this.structured = true;
        this.assignment(node);
        return;
      case 'declaration_command':
      case 'unset_command':
      case 'test_command':
        this.builtinStatement(node);
        return;
      case 'for_statement':
        this.loopVariable(node);
        break;
      case 'expansion':
        this.unparsedSubstitutions(node);
        break;
    }
    this.unless(evaluationProblem(node, (name) => this.integerBound(name)));
    if (STRUCTURAL.has(node.type)) this.structured = true;
    if (CONTROL.has(node.type)) {
      const before = this.cwd;
      if (node.type === 'for_statement') this.boundLoop(node);
      else this.children(node);
      if (this.cwd !== before) this.cwd = undefined; // a cd that may or may not have run
      return;
    }
    this.children(node);
  }

  private children(node: Node): void {
    for (const child of node.children) if (child) this.visit(child);
  }

  /**
   * Each part of a pipeline runs in its own process (a cd does not leak out); a part that follows a
   * command printing only names (find) knows what its stdin holds.
   */
  private pipeline(node: Node): void {
    const before = this.cwd;
    let names: Names | undefined;
    // `a | b < f` parses as the pipeline redirected: b reads f.
    const parent = node.parent;
    const lastRedirected =
      parent?.type === 'redirected_statement' &&
      parent.children.some((c) => !!c && c !== node && /^\d*<(?!\()/.test(c.text));
    const last = node.namedChildren.filter((c) => !!c).pop();
    try {
      for (const child of node.children) {
        if (!child?.isNamed) continue;
        if (child.id === last?.id && lastRedirected) names = undefined;
        // Only a plain command reads the names, unless a redirection gives it another stdin.
        const redirected = child.children.some(
          (c) => !!c && /redirect|herestring/.test(c.type) && /^\d*<(?!\()/.test(c.text),
        );
        this.stdinNames = child.type === 'command' && !redirected ? names : undefined;
        const seen = this.simple.length;
        this.visit(child);
        this.cwd = before;
        const cmd = this.simple.length === seen + 1 && child.type === 'command' ? this.simple[seen] : undefined;
        // A filter that passes some input lines unchanged (head, sort, grep) passes the names on.
        names =
          cmd && (namesPrinted(cmd) ?? (names && !names.nul && !redirected && passesNames(cmd) ? names : undefined));
      }
    } finally {
      this.stdinNames = undefined;
      this.cwd = before;
    }
  }

  /** Subshells run in their own process: a cd inside does not leak out. */
  private isolated(node: Node, eachChild: boolean): void {
    const before = this.cwd;
    for (const child of node.children) {
      if (!child) continue;
      this.visit(child);
      if (eachChild) this.cwd = before;
    }
    this.cwd = before;
  }

  /** `$f`, `"$f"`, `${f}` as a whole word, f bound to a producer's names. */
  private loopName(node: Node): Word | undefined {
    if (!this.loopNamed.size) return undefined;
    const m = /^"?\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?"?$/.exec(node.text);
    return m && node.text.startsWith('"') === node.text.endsWith('"') ? this.loopNamed.get(m[1]) : undefined;
  }

  /**
   * An unquoted `$(find …)` (or `$(rg --files DIR)`) as a whole argument: names below the start
   * paths, split by the shell at blanks and globbed (a name with a blank or glob character asks).
   */
  private substitutedNames(node: Node, seen: number, into: Map<number, Word>): void {
    if (node.type !== 'command_substitution' || this.simple.length !== seen + 1) return;
    const inner = node.namedChildren.filter((c) => !!c);
    if (inner.length !== 1 || inner[0]!.type !== 'command') return;
    const names = namesPrinted(this.simple[seen]);
    if (!names) return;
    const under = {
      starts: names.starts,
      follow: true,
      split: 'shell' as const,
      ...(names.bare ? { bare: true } : {}),
    };
    into.set(node.id, { value: '{}', pattern: '{}', static: false, source: node.text, under });
  }

  /** A `for` variable whose every value is an integer while its loop body is walked, or a name the script only gives integers (literals.ts). */
  private integerBound(name: string): boolean {
    const bound = this.bindings.get(name);
    if (bound) return bound.every((v) => /^-?[0-9]{1,15}$/.test(v));
    return integerLiteral(name, this.scripts, this.opts.env);
  }

  /** `for f in …; do …; done`: the body walked with f bound to the list's values (loops.ts). */
  private boundLoop(node: Node): void {
    const body = node.childForFieldName('body');
    // The list first (its substitutions run before the body), then the body with the variable bound.
    const seen = this.simple.length;
    for (const child of node.children) if (child && child.id !== body?.id) this.visit(child);
    const loop = loopValues(node, this.opts.home, this.cwd, this.opts.budget);
    const name = node.childForFieldName('variable')?.text;
    const names = loop || !name ? undefined : this.loopNames(node, seen);
    const outer = loop ? this.bindings.get(loop.name) : undefined;
    const outerNames = name ? this.loopNamed.get(name) : undefined;
    if (loop) this.bindings.set(loop.name, loop.values);
    if (names && name) this.loopNamed.set(name, names);
    try {
      if (body) this.visit(body);
    } finally {
      if (loop && outer) this.bindings.set(loop.name, outer);
      else if (loop) this.bindings.delete(loop.name);
      if (names && name && outerNames) this.loopNamed.set(name, outerNames);
      else if (names && name) this.loopNamed.delete(name);
    }
  }

  /**
   * `for f in $(find …)`: f is one of the names, split by the shell at blanks and globbed (a name
   * with either asks); undefined when the list is anything else or the body may set f.
   */
  private loopNames(node: Node, seen: number): Word | undefined {
    const values = node.childrenForFieldName('value').filter((n): n is Node => !!n);
    const body = node.childForFieldName('body');
    const name = node.childForFieldName('variable')?.text ?? '';
    if (values.length !== 1 || values[0].type !== 'command_substitution' || !body || bodySets(body, name))
      return undefined;
    const inner = values[0].namedChildren.filter((c) => !!c);
    if (inner.length !== 1 || inner[0]!.type !== 'command' || this.simple.length !== seen + 1) return undefined;
    const names = namesPrinted(this.simple[seen]);
    if (!names) return undefined;
    const under = {
      starts: names.starts,
      follow: true,
      split: 'shell' as const,
      ...(names.bare ? { bare: true } : {}),
    };
    return { value: '{}', pattern: '{}', static: false, source: `$${name}`, under };
  }

  private command(node: Node): Finding[] {
    const words: Node[] = [];
    const assignments: Node[] = [];
    const listed = new Map<number, Word>();
    for (let i = 0; i < node.childCount; i++) {
      const child = node.child(i);
      if (!child) continue;
      const field = node.fieldNameForChild(i);
      if (child.type === 'variable_assignment') {
        this.children(child);
        assignments.push(child);
      } else if (field === 'name' || field === 'argument') {
        const seen = this.simple.length;
        this.visit(child);
        words.push(field === 'name' ? (child.firstChild ?? child) : child);
        if (field === 'argument') this.substitutedNames(child, seen, listed);
      } else if (field === 'redirect' || child.type.endsWith('redirect') || child.type === 'ERROR') this.visit(child);
    }
    // Judged once per value of the loop variables it uses (and $PWD, `$(pwd)` as the cwd).
    const findings: Finding[] = [];
    for (const known of combinations(node.text, this.bindings, this.cwd)) {
      const argv = words.map((w) => listed.get(w.id) ?? this.loopName(w) ?? resolveWord(w, this.opts.home, known));
      findings.push(
        ...this.runArgv(
          argv,
          assignments.map((a) => this.assignmentWord(a, known)),
        ),
      );
    }
    return findings;
  }

  private assignmentWord(node: Node, known: Known = {}): Word {
    const name = node.childForFieldName('name')?.text ?? '';
    const valueNode = node.childForFieldName('value');
    const value = valueNode ? resolveWord(valueNode, this.opts.home, known) : literalWord('');
    return {
      value: `${name}=${value.value}`,
      pattern: `${name}=${value.pattern}`,
      static: value.static,
      source: node.text,
    };
  }

  /** Classifies an argv (after brace expansion) and records it as a command of the script. */
  runArgv(raw: Word[], prefix: Word[] = []): Finding[] {
    const assignments = [...prefix];
    let start = 0;
    while (start < raw.length && raw[start].static && /^[A-Za-z_][A-Za-z0-9_]*=/.test(raw[start].value))
      assignments.push(raw[start++]);
    const words = raw.slice(start).flatMap((w) => expandBraces(w, this.opts.budget));
    const tokens = [...assignments, ...words].map(render);
    const text = tokens.join(' ');
    if (!words.length) return assignments.flatMap((a) => this.assigned(a, false, text));
    this.commands.push(text);
    const nameWord = words[0];
    const cmd: SimpleCommand = { name: nameWord.value, args: words.slice(1), text, tokens, lead: assignments.length };
    this.simple.push(cmd);
    const findings = assignments.flatMap((a) => this.assigned(a, true, text));
    if (!nameWord.static)
      return [...findings, { effect: 'execute', detail: describe(cmd, 'the command name is computed') }];
    let name = nameWord.value;
    if (SYSTEM_BIN.test(name)) name = posix.basename(name);
    else if (name.includes('/')) return [...findings, { effect: 'execute', detail: describe(cmd, `runs ${name}`) }];
    cmd.name = name;
    const own = this.functions.has(name)
      ? [{ effect: 'read' as const, detail: describe(cmd, 'calls a function defined in this script') }]
      : judgeCommand(cmd, this.scope);
    const globbed = this.globProblem(cmd);
    // A glob the verdict did not see through makes a read or an edit not what it seemed; a
    // destructive or blocked verdict stands.
    findings.push(
      ...(globbed
        ? own.map((f) =>
            f.effect === 'read' || f.effect === 'write'
              ? { effect: 'execute' as const, detail: describe(cmd, globbed) }
              : f,
          )
        : own),
    );
    return findings;
  }

  /** Why a glob among the arguments makes the command more than it looks (an option, names from outside). */
  private globProblem(cmd: SimpleCommand): string | undefined {
    const dash = globOption(cmd.args, this.cwd, (n) => this.opts.budget.spendWords(n));
    if (dash)
      return dash.name
        ? `the glob ${dash.word.source} matches ${dash.name}, which ${cmd.name} takes as an option`
        : `the glob ${dash.word.source} may match a name that starts with -`;
    return globDirectoryProblem(cmd.args, this.wordContext());
  }

  /** `FOO=1 cmd` (exported to cmd) or `FOO=1` alone (for the rest of the script). */
  private assigned(a: Word, exported: boolean, text: string): Finding[] {
    const why = assignProblem(a.value.split('=')[0], exported, this.opts.env);
    return why ? [{ effect: 'execute', detail: `${text} (${why})` }] : [];
  }

  private unless(why: string | undefined): void {
    if (why) this.findings.push({ effect: 'execute', detail: why });
  }

  /** Why reading a word as a file is not a plain read; see Scope.readProblem. */
  private readProblem(w: Word, walk?: WalkMode): string | undefined {
    return wordReadProblem(w, walk, this.wordContext());
  }

  private wordContext(): WordContext {
    return {
      cwd: this.cwd,
      resolve: (x) => this.resolve(x),
      roots: this.opts.roots,
      isDirectory: this.opts.isDirectory,
      ...(this.opts.isProtected ? { isProtected: this.opts.isProtected } : {}),
      secret: (x) => this.protectedRead(render(x)),
      spend: (n) => this.opts.budget.spendWords(n),
      expired: () => this.opts.budget.expired(),
      ...(this.opts.confined ? { confined: true } : {}),
    };
  }

  /**
   * A read of a protected file is listed as its own `< path` entry, like a redirection: an allow
   * rule or remembered prefix for the command (`cat`) does not cover it.
   */
  private protectedRead(path: string): void {
    this.structured = true;
    this.commands.push(`< ${path}`);
  }

  private assignment(node: Node): void {
    this.children(node);
    const n = assignedName(node);
    if ('why' in n) return this.unless(n.why);
    const why = assignProblem(n.name, false, this.opts.env);
    if (why) this.findings.push({ effect: 'execute', detail: `${node.text.replace(/\s+/g, ' ')} (${why})` });
  }

  /** `for NAME in …` and `select NAME in …` assign NAME: `for PS4 in '$(cat .env)'` sets PS4. */
  private loopVariable(node: Node): void {
    const name = node.childForFieldName('variable')?.text;
    if (name === undefined) return;
    const why = assignProblem(name, false, this.opts.env);
    if (why) this.findings.push({ effect: 'execute', detail: `for ${name} in … (${why})` });
  }

  /**
   * The parser leaves backquotes (and some `$(…)`) inside `${x:-…}` as plain words, yet bash runs
   * them: each such piece is parsed again as a word of its own and walked like the rest.
   */
  private unparsedSubstitutions(node: Node): void {
    const pending: Node[] = [...node.children].filter((c): c is Node => !!c);
    while (pending.length) {
      const n = pending.pop()!;
      if (n.type === 'command_substitution' || n.type === 'process_substitution') continue;
      if (n.childCount) pending.push(...n.children.filter((c): c is Node => !!c));
      else if (/`|\$\(|[<>]\(/.test(n.text)) this.findings.push(...this.nested(`: ${n.text}`));
    }
  }

  /** export/declare/local/unset/[[ ]]: shell-internal; reads when every name and operand is plain. */
  private builtinStatement(node: Node): void {
    const text = node.text.replace(/\s+/g, ' ');
    this.commands.push(text);
    this.structured = true;
    const before = this.findings.length;
    // Substitutions inside run first, whatever the statement does.
    for (const child of node.children) if (child) this.children(child);
    const why = statementProblem(node, this.opts.env);
    if (why)
      this.findings.push({
        effect: 'execute',
        detail: `${text.length > 120 ? `${text.slice(0, 119)}…` : text} (${why})`,
      });
    if (this.findings.length === before)
      this.findings.push({ effect: 'read', detail: text.length > 120 ? `${text.slice(0, 119)}…` : text });
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
    const verdict = judgeRedirect(op, resolveWord(dest, this.opts.home), this.scope);
    this.findings.push(...verdict.findings);
    if (verdict.entry === undefined) return;
    this.structured = true;
    this.commands.push(verdict.entry);
  }

  private functionDefinition(node: Node): void {
    const name = node.childForFieldName('name')?.text ?? '';
    const body = node.childForFieldName('body');
    this.functions.add(name);
    if (!body) return;
    const bomb = forkBomb(name, body);
    if (bomb) this.findings.push(bomb);
    const before = this.cwd;
    // The function may run after the loop that encloses it, when its variables hold anything:
    // its body is judged with none of them bound.
    const bound = [new Map(this.bindings), new Map(this.loopNamed)] as const;
    this.bindings.clear();
    this.loopNamed.clear();
    try {
      this.visit(body);
    } finally {
      for (const [k, v] of bound[0]) this.bindings.set(k, v);
      for (const [k, v] of bound[1]) this.loopNamed.set(k, v);
    }
    this.cwd = before;
  }

  /** A script given as a string (bash -c, eval, trap): parsed and walked in place. */
  private nested(text: string): Finding[] {
    this.structured = true;
    if (this.depth >= MAX_DEPTH) return [{ effect: 'execute', detail: 'shell scripts nested too deeply to check' }];
    const budget = this.opts.budget;
    const tree = parseLoaded(text, () => budget.expired());
    if (!tree) throw new TooLarge(`checking it took longer than ${budget.limits.ms} ms`);
    const before = this.findings.length;
    this.depth++;
    try {
      budget.spendNodes(tree.rootNode.descendantCount);
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
    // As the kernel does: `link/..` is the parent of where link points, not `.`.
    if (w.value.startsWith('/')) return physicalPath(w.value);
    return this.cwd === undefined ? undefined : physicalPath(`${this.cwd}/${w.value}`);
  }
}
