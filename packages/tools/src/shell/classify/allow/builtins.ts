// Bash builtins. Several evaluate their words: a variable name like `a[$(cmd)]` given to
// `test -v`, `printf -v`, `read` or `unset` runs cmd through the array subscript, and `hash -p`
// or `mapfile -C` make later words run programs. These are reads only when each name is a plain
// variable name and each number a plain number.
import { literalWord, type Word } from '../words.js';
import { table, valuesOf } from './getopt.js';
import { no, OK, type Args, type ReadSpec, type Verdict } from './spec.js';
import type { Scope } from '../types.js';

export const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const NUMBER = /^[-+]?\d+$/;

/** Each word names a variable the builtin sets: a plain name that is harmless to set. */
function assigns(words: Word[], scope: Scope, exported = false): Verdict {
  for (const w of words) {
    if (!w.static || !NAME.test(w.value))
      return no(`${w.source} is not a plain variable name (a subscript there is evaluated)`);
    const why = scope.assignProblem(w.value, exported);
    if (why) return no(why);
  }
  return OK;
}

function numbers(max: number): ReadSpec {
  return {
    operands: 'data',
    check: (_c, a) => {
      if (a.operands.length > max) return no('too many arguments');
      const bad = a.operands.find((w) => !w.static || !NUMBER.test(w.value));
      return bad ? no(`${bad.source} is not a plain number (it is evaluated as arithmetic)`) : OK;
    },
  };
}

const printf: ReadSpec = {
  operands: 'data',
  check: (_c, a, scope) => (a.operands[0]?.value === '-v' ? assigns(a.operands.slice(1, 2), scope) : OK),
};

const read: ReadSpec = {
  options: table('ersa:d:i:n:N:p:t:u:', ''),
  operands: 'data',
  check: (_c, a, scope) => assigns([...valuesOf(a, '-a'), ...a.operands], scope),
};

const mapfile: ReadSpec = {
  // -C runs a command every -c lines.
  options: table('td:n:O:s:u:C!:c:', ''),
  operands: 'data',
  check: (_c, a, scope) => {
    const bad = [...valuesOf(a, '-n', '-O', '-s', '-u')].find((w) => !w.static || !NUMBER.test(w.value));
    if (bad) return no(`${bad.source} is not a plain number`);
    return assigns(a.operands.slice(0, 1), scope);
  },
};

const hash: ReadSpec = {
  // -p PATH NAME makes NAME run PATH.
  options: table('lrtdp!:', ''),
  operands: 'data',
};

const compgen: ReadSpec = {
  // -C and -F run code; -W and -X expand their words (substitutions included).
  options: table('abcdefgjksuvA:G:o:P:S:C!:F!:W!:X!:', ''),
  operands: 'data',
  maxOperands: 1,
};

const getopts: ReadSpec = {
  operands: 'data',
  check: (_c, a, scope) =>
    a.operands.length < 2 ? no('getopts needs an option string and a name') : assigns(a.operands.slice(1, 2), scope),
};

/** `test -v NAME` / `[ -v NAME ]` evaluate NAME's subscript; other tests only compare strings. */
const test: ReadSpec = {
  operands: 'data',
  check: (_c, a) => {
    const w = a.operands;
    for (let i = 0; i < w.length; i++) {
      if (w[i].value !== '-v' || i + 1 >= w.length) continue;
      const name = w[i + 1];
      if (!name.static || !NAME.test(name.value))
        return no(`test -v ${name.source}: the subscript of a name is evaluated`);
    }
    return OK;
  },
};

/** Only the safe switches: errexit, nounset, pipefail, xtrace... `set` alone prints every variable. */
const SET_LETTERS = /^[-+][eufxvnCBEhH]+$/;
const SET_OPTIONS = new Set([
  'errexit',
  'nounset',
  'pipefail',
  'xtrace',
  'verbose',
  'noglob',
  'noclobber',
  'errtrace',
  'braceexpand',
  'hashall',
  'noexec',
]);
const set: ReadSpec = {
  operands: 'data',
  check: (_c, a) => {
    const w = a.operands.map((x) => x.value);
    if (!w.length) return no('set alone prints every variable');
    for (let i = 0; i < w.length; i++) {
      if (w[i] === '--' || w[i] === '-') return OK; // the rest are positional parameters
      if (!a.operands[i].static) return no(`set ${a.operands[i].source} is computed`);
      // `-o NAME` may end a cluster: `set -euo pipefail`.
      const cluster = /^([-+][A-Za-z]*)o$/.exec(w[i]);
      if (cluster) {
        if (cluster[1].length > 1 && !SET_LETTERS.test(cluster[1]))
          return no(`set ${w[i]} is not an option we know to be harmless`);
        if (!SET_OPTIONS.has(w[++i] ?? '')) return no(`set -o ${w[i] ?? ''} is not an option we know to be harmless`);
      } else if (!SET_LETTERS.test(w[i])) return no(`set ${w[i]} is not an option we know to be harmless`);
    }
    return OK;
  },
};

const shopt: ReadSpec = {
  options: table('pqos!u!', ''),
  operands: 'data',
};

const kill: ReadSpec = {
  operands: 'data',
  check: (_c, a) => (['-l', '-L'].includes(a.operands[0]?.value ?? '') ? OK : no('it sends signals')),
};

export const cdSpec: ReadSpec = {
  operands: 'data',
  check: (cmd, a, scope) => {
    const target = a.operands.find((w) => !/^-[PLe@]$|^--$/.test(w.value));
    if (cmd.name === 'popd' || target?.value === '-') scope.chdir(undefined);
    else scope.chdir(target ?? literalWord(scope.home));
    return OK;
  },
};

export const BUILTINS: Record<string, ReadSpec> = {
  printf,
  read,
  mapfile,
  readarray: mapfile,
  hash,
  compgen,
  getopts,
  test,
  '[': test,
  set,
  shopt,
  kill,
  cd: cdSpec,
  pushd: cdSpec,
  popd: cdSpec,
  shift: numbers(1),
  exit: numbers(1),
  return: numbers(1),
  break: numbers(1),
  continue: numbers(1),
  caller: numbers(1),
  history: numbers(1),
  wait: {
    options: table('fnp!:', ''),
    operands: 'data',
    check: (_c, a: Args) =>
      a.operands.every((w) => w.static && /^%?\d+$/.test(w.value)) ? OK : no('wait takes job or process numbers'),
  },
  jobs: { options: table('lnprsx!', ''), operands: 'data' },
  times: { operands: 'none' },
  dirs: { options: table('clpv', ''), operands: 'data' },
  help: { options: table('dms', ''), operands: 'data' },
  type: { options: table('afptP', ''), operands: 'data' },
  umask: { options: table('pS', ''), operands: 'none' },
  ulimit: { options: table('SHabcdefiklmnpqrstuvxPRT', ''), operands: 'none' },
  disown: { options: table('ahr', ''), operands: 'data' },
};

/** `let`, `(( ))`, `$(( ))`: arithmetic evaluates names recursively, so only numbers are plain. */
export function plainArithmetic(expr: string): boolean {
  return !/[A-Za-z_$`\\[]/.test(expr);
}
