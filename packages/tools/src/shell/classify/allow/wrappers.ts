// Commands that run another command (timeout, nice, env, xargs...): the wrapper's own options must
// be understood, and the inner command is classified like any other.
import { xargs as xargsInner } from '../commands/wrappers.js';
import { describe, type Finding, type Scope, type SimpleCommand } from '../types.js';
import { has, table } from './getopt.js';
import { no, OK, type Args, type ReadSpec, type Verdict } from './spec.js';

const std = 'help version';

function wrapped(cmd: SimpleCommand, scope: Scope, inner: SimpleCommand['args']): Verdict {
  const own: Finding = { effect: 'read', detail: describe(cmd) };
  return { ok: true, findings: inner.length ? [own, ...scope.argv(inner)] : [own] };
}

function wrapper(short: string, long: string, skip = 0, extra?: (a: Args) => string | undefined): ReadSpec {
  return {
    options: table(short, `${long} ${std}`, { complete: true, numeric: short.includes('#') }),
    operands: 'data',
    stopAtOperand: true,
    check: (cmd, a, scope) => {
      const why = extra?.(a);
      if (why) return no(why);
      return wrapped(cmd, scope, a.operands.slice(skip));
    },
  };
}

const env: ReadSpec = {
  // -S splits a string into a command line we would have to parse again; -C moves the cwd.
  options: table(
    'i0vu:C!:S!:',
    `ignore-environment null unset= !chdir= !split-string= debug block-signal? default-signal? ignore-signal? list-signal-handling ${std}`,
    { complete: true },
  ),
  operands: 'data',
  stopAtOperand: true,
  check: (cmd, a, scope) => {
    let i = 0;
    for (; i < a.operands.length; i++) {
      const w = a.operands[i];
      const m = /^([A-Za-z_][A-Za-z0-9_]*)=/.exec(w.value);
      if (!m || !w.static) break;
      const why = scope.assignProblem(m[1], true);
      if (why) return no(why);
    }
    const inner = a.operands.slice(i);
    if (!inner.length) return no('env prints the environment');
    return wrapped(cmd, scope, inner);
  },
};

const xargs: ReadSpec = {
  // -p and -o talk to the terminal; --process-slot-var sets a variable the inner command sees.
  options: table(
    '0d:E:I:iL:ln:P:s:rtxe?a@p!o!',
    `null delimiter= eof? replace? max-lines? max-args= max-procs= max-chars= no-run-if-empty verbose exit show-limits arg-file=@ !interactive !open-tty !process-slot-var= ${std}`,
    { complete: true },
  ),
  operands: 'data',
  stopAtOperand: true,
  check: (cmd, a, scope) => {
    if (!a.operands.length) return OK; // runs echo
    // The inner command gets words nobody has seen: file readers among them ask.
    return { ok: true, findings: [{ effect: 'read', detail: describe(cmd) }, ...xargsInner(cmd, scope)] };
  },
};

const command: ReadSpec = {
  options: table('pvV', ''),
  operands: 'data',
  stopAtOperand: true,
  check: (cmd, a, scope) => (has(a, '-v', '-V') ? OK : wrapped(cmd, scope, a.operands)),
};

const exec: ReadSpec = {
  options: table('cla:', ''),
  operands: 'data',
  stopAtOperand: true,
  check: (cmd, a, scope) => wrapped(cmd, scope, a.operands),
};

export const WRAPPERS: Record<string, ReadSpec> = {
  timeout: wrapper('s:k:v', 'signal= kill-after= preserve-status foreground verbose', 1),
  nice: wrapper('n:#', 'adjustment='),
  nohup: wrapper('', ''),
  // GNU time -o/-a write the report to a file.
  time: wrapper('f:pvqo!:a!', 'format= portability verbose quiet !output= !append'),
  stdbuf: wrapper('i:o:e:', 'input= output= error='),
  ionice: wrapper('c:n:tp!:P!:u!:', 'class= classdata= ignore !pid= !pgid= !uid='),
  builtin: wrapper('', ''),
  command,
  exec,
  env,
  xargs,
};
