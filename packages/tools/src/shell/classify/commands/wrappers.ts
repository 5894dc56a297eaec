// Commands that run other commands: the inner command is classified like any other, and the
// wrapper adds what it does itself (sudo: root).
import { hasFlag, parseOptions, type Options, type OptionSpec } from '../options.js';
import {
  block,
  describe,
  destroy,
  execute,
  read,
  type Finding,
  type Handler,
  type Scope,
  type SimpleCommand,
} from '../types.js';
import { criticalTarget } from '../paths.js';
import { literalWord, UNKNOWN, type Word } from '../words.js';

/** The inner argv after the wrapper's own options, classified; `none` when there is none. */
function inner(cmd: SimpleCommand, scope: Scope, spec: OptionSpec, none: () => Finding[]): Finding[] {
  const o = parseOptions(cmd.args, { ...spec, stopAtPositional: true });
  const rest = cmd.args.slice(o.rest);
  return rest.length ? scope.argv(rest) : none();
}

export const sudo: Handler = (cmd, scope) => {
  const o = parseOptions(cmd.args, {
    shortArgs: 'ugCDhprtTU',
    longArgs: [
      'user',
      'group',
      'close-from',
      'chdir',
      'host',
      'prompt',
      'role',
      'type',
      'command-timeout',
      'other-user',
    ],
    stopAtPositional: true,
  });
  const rest = cmd.args.slice(o.rest);
  const inside = rest.length ? scope.argv(rest) : [];
  const blocked = inside.find((f) => f.blocked);
  if (blocked) return [blocked];
  return [...inside, ...destroy(cmd, 'runs as root or another user')];
};

export const env: Handler = (cmd, scope) => {
  const o = parseOptions(cmd.args, {
    shortArgs: 'uCS',
    longArgs: ['unset', 'chdir', 'split-string'],
    stopAtPositional: true,
  });
  if (o.values.has('-S') || o.long.has('split-string')) return execute(cmd, 'env -S splits a computed command line');
  let i = o.rest;
  const assignments: Word[] = [];
  while (i < cmd.args.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(cmd.args[i].value)) assignments.push(cmd.args[i++]);
  const rest = cmd.args.slice(i);
  if (!rest.length) return read(cmd);
  return scope.argv([...assignments, ...rest]);
};

const simpleWrapper =
  (spec: OptionSpec, skipPositional = 0): Handler =>
  (cmd, scope) => {
    const o = parseOptions(cmd.args, { ...spec, stopAtPositional: true });
    const rest = cmd.args.slice(o.rest + skipPositional);
    return rest.length ? scope.argv(rest) : read(cmd);
  };

export const timeout: Handler = simpleWrapper({ shortArgs: 'sk', longArgs: ['signal', 'kill-after'] }, 1);
export const nohup: Handler = simpleWrapper({});
export const time: Handler = simpleWrapper({ shortArgs: 'fo', longArgs: ['format', 'output'] });
export const stdbuf: Handler = simpleWrapper({ shortArgs: 'ioe', longArgs: ['input', 'output', 'error'] });
export const builtin: Handler = simpleWrapper({});

export const nice: Handler = (cmd, scope) => {
  // `nice -10 cmd` is an old spelling of `nice -n 10 cmd`.
  const args = cmd.args[0] && /^-\d+$/.test(cmd.args[0].value) ? cmd.args.slice(1) : cmd.args;
  return inner({ ...cmd, args }, scope, { shortArgs: 'n', longArgs: ['adjustment'] }, () => read(cmd));
};

export const command: Handler = (cmd, scope) => {
  const o = parseOptions(cmd.args, { stopAtPositional: true });
  if (hasFlag(o, 'vV')) return read(cmd);
  const rest = cmd.args.slice(o.rest);
  return rest.length ? scope.argv(rest) : read(cmd);
};

export const exec: Handler = (cmd, scope) =>
  inner(cmd, scope, { shortArgs: 'a' }, () => read(cmd, 'changes redirections of the shell'));

const fromInput = (source: string): Word => ({ value: UNKNOWN, pattern: UNKNOWN, static: false, source });

/**
 * A word with a placeholder that a program fills in at run time (`{}` for xargs -I and find
 * -exec): a placeholder that is the whole word is one argument; inside a longer word it may be
 * code (`sh -c 'echo {}'`), so the word is unknown.
 */
function substituted(words: Word[], placeholders: RegExp): Word[] {
  return words.map((w) =>
    placeholders.test(w.value) && !new RegExp(`^(${placeholders.source})$`).test(w.value) ? fromInput(w.source) : w,
  );
}

/**
 * The words xargs makes of its stdin: names below known paths when the command before it prints
 * only names (find), split as xargs splits them (a name with a blank then becomes several words,
 * which the reader's walk asks about); anything else is arguments nobody has seen.
 */
function inputWords(o: Options, scope: Scope): Word {
  const names = scope.stdinNames;
  if (!names || o.values.has('-a') || o.long.has('arg-file')) return fromInput('<stdin>');
  const delimiter =
    o.values.get('-d')?.[0]?.value ??
    (typeof o.long.get('delimiter') === 'string' ? (o.long.get('delimiter') as string) : undefined);
  const nulInput = o.short.has('0') || o.long.has('null');
  let split: 'blank' | 'newline' | undefined;
  if (nulInput) split = undefined;
  else if (delimiter !== undefined) {
    // Only a newline delimiter keeps names whole; another one (`-d /`) cuts them anywhere.
    if (delimiter !== '\\n' && delimiter !== '\n') return fromInput('<stdin>');
    split = names.nul ? 'blank' : 'newline';
  } else split = 'blank';
  const under = {
    starts: names.starts,
    follow: true,
    ...(split ? { split } : {}),
    ...(names.bare ? { bare: true } : {}),
  };
  return { value: '{}', pattern: '{}', static: false, source: `<names from ${names.producer}>`, under };
}

export const xargs: Handler = (cmd, scope) => {
  const o = parseOptions(cmd.args, {
    // -i, -e and -l take their value only when attached (`-i{}`): they are plain flags here.
    shortArgs: 'adEILnPs',
    longArgs: ['arg-file', 'delimiter', 'eof', 'max-lines', 'max-args', 'max-procs', 'max-chars', 'process-slot-var'],
    stopAtPositional: true,
  });
  const rest = cmd.args.slice(o.rest);
  if (!rest.length) return read(cmd);
  const input = inputWords(o, scope);
  const replace =
    o.values.get('-I')?.[0]?.value ??
    (o.short.has('i') || o.long.has('replace')
      ? typeof o.long.get('replace') === 'string'
        ? (o.long.get('replace') as string)
        : '{}'
      : undefined);
  if (replace) {
    // Every line of stdin is put where the replace string is, and nothing is appended.
    const inner = rest.map((w) =>
      w.value.includes(replace) ? (w.value === replace ? input : fromInput(w.source)) : w,
    );
    return scope.argv(inner);
  }
  // The words read from stdin are appended.
  return scope.argv([...rest, input]);
};

export const watch: Handler = (cmd, scope) => {
  const o = parseOptions(cmd.args, { shortArgs: 'nq', longArgs: ['interval', 'equexit'], stopAtPositional: true });
  const rest = cmd.args.slice(o.rest);
  if (!rest.length) return read(cmd);
  if (o.short.has('x') || o.long.has('exec')) return scope.argv(rest);
  if (rest.some((w) => !w.static)) return execute(cmd, 'the watched command is computed');
  return scope.script(rest.map((w) => w.value).join(' '));
};

const SHELL_OPTS_WITH_ARG = 'oO';

/** bash -c 'script' is classified as that script; a script file or stdin cannot be checked. */
export const shell: Handler = (cmd, scope) => {
  let i = 0;
  let script: Word | undefined;
  let wantsScript = false;
  for (; i < cmd.args.length; i++) {
    const a = cmd.args[i].value;
    if (a === '--' || (!a.startsWith('-') && !a.startsWith('+'))) break;
    if (/^-[a-zA-Z]*c[a-zA-Z]*$/.test(a)) wantsScript = true;
    else if (SHELL_OPTS_WITH_ARG.includes(a.slice(-1)) && a.length === 2) i++;
  }
  if (wantsScript) script = cmd.args[i] && cmd.args[i].value === '--' ? cmd.args[i + 1] : cmd.args[i];
  if (wantsScript) {
    if (!script) return execute(cmd, 'no script given');
    if (!script.static) return execute(cmd, 'the script is computed');
    return scope.script(script.value);
  }
  if (i < cmd.args.length) return execute(cmd, `runs the script ${cmd.args[i].source}`);
  return execute(cmd, 'runs commands read from stdin');
};

export const evalCmd: Handler = (cmd, scope) => {
  if (!cmd.args.length) return read(cmd);
  if (cmd.args.some((w) => !w.static)) return execute(cmd, 'evaluates a computed string');
  return scope.script(cmd.args.map((w) => w.value).join(' '));
};

export const trap: Handler = (cmd, scope) => {
  const o = parseOptions(cmd.args, { stopAtPositional: true });
  const rest = cmd.args.slice(o.rest);
  if (hasFlag(o, 'lp') || rest.length === 0 || rest[0].value === '-' || rest[0].value === '') return read(cmd);
  if (rest.length === 1 && /^\d+$|^SIG|^[A-Z]+$/.test(rest[0].value)) return read(cmd);
  if (!rest[0].static) return execute(cmd, 'the trap command is computed');
  return scope.script(rest[0].value);
};

export const source: Handler = (cmd) => execute(cmd, `runs the commands in ${cmd.args[0]?.source ?? 'a file'}`);

/** find: -delete and -exec decide; every other expression only reads. */
export const find: Handler = (cmd, scope) => {
  const findings: Finding[] = [];
  const args = cmd.args;
  let i = 0;
  // Leading options (-H -L -P -D x -Ox), then start paths, then the expression.
  while (i < args.length && /^-[HLP]$|^-O\d$/.test(args[i].value)) i++;
  if (args[i]?.value === '-D') i += 2;
  const starts: Word[] = [];
  while (i < args.length && args[i].static && !/^[-(!)]/.test(args[i].value)) starts.push(args[i++]);
  let effect: Finding['effect'] = 'read';
  let why: string | undefined;
  const written: string[] = [];
  let unknownTarget = false;
  for (; i < args.length; i++) {
    const a = args[i];
    if (!a.static) return execute(cmd, 'computed arguments cannot be checked');
    if (a.value === '-delete') {
      for (const s of starts.length ? starts : [literalWord('.')]) {
        const abs = scope.resolve(s);
        const what = abs && criticalTarget(abs, s, scope.home);
        if (what) return block(cmd, `deletes ${what}`);
      }
      effect = 'destructive';
      why = '-delete removes files';
    } else if (/^-(exec|execdir|ok|okdir)$/.test(a.value)) {
      const end = args.findIndex((w, k) => k > i && (w.value === ';' || w.value === '+'));
      const innerArgs = substituted(args.slice(i + 1, end < 0 ? args.length : end), /\{\}/);
      if (!innerArgs.length) return execute(cmd, `${a.value} without a command`);
      findings.push(...scope.argv(innerArgs));
      i = end < 0 ? args.length : end;
    } else if (/^-(fprint|fprint0|fprintf|fls)$/.test(a.value)) {
      const target = args[i + 1] ? scope.resolve(args[i + 1]) : undefined;
      if (target) written.push(target);
      else unknownTarget = true;
      if (effect === 'read') {
        effect = 'write';
        why = `${a.value} writes a file`;
      }
    }
  }
  const paths = effect === 'write' && !unknownTarget ? { paths: written } : {};
  return [...findings, { effect, detail: describe(cmd, why), ...paths }];
};

/** fd -x / -X run a command per match. */
export const fd: Handler = (cmd, scope) => {
  const args = cmd.args;
  const at = args.findIndex((w) => /^(-x|-X|--exec|--exec-batch)$/.test(w.value));
  if (at < 0) {
    if (args.some((w) => !w.static)) return execute(cmd, 'computed arguments cannot be checked');
    return read(cmd);
  }
  const end = args.findIndex((w, k) => k > at && w.value === ';');
  const innerArgs = substituted(args.slice(at + 1, end < 0 ? args.length : end), /\{\/?\/?\.?\}/);
  return [...scope.argv(innerArgs), { effect: 'read', detail: describe(cmd) }];
};
