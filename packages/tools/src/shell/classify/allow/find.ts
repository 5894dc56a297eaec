// find: every expression word must be a test or action we know; -delete and -fprint write,
// -exec runs a command that is classified in turn, with `{}` standing for files below the start
// paths (so `find . -exec cat {} +` is checked like `cat -r .` would be).
import { describe, type Finding } from '../types.js';
import type { Word } from '../words.js';
import { no, type ReadSpec } from './spec.js';

export const FLAGS = new Set([
  '-print',
  '-print0',
  '-ls',
  '-prune',
  '-quit',
  '-true',
  '-false',
  '-not',
  '!',
  '(',
  ')',
  '-a',
  '-and',
  '-o',
  '-or',
  ',',
  '-depth',
  '-d',
  '-follow',
  '-xdev',
  '-mount',
  '-noleaf',
  '-daystart',
  '-empty',
  '-readable',
  '-writable',
  '-executable',
  '-nouser',
  '-nogroup',
  '-ignore_readdir_race',
  '-noignore_readdir_race',
  '-warn',
  '-nowarn',
  '-help',
  '--help',
  '-version',
  '--version',
]);
export const WITH_VALUE = new Set([
  '-name',
  '-iname',
  '-path',
  '-ipath',
  '-wholename',
  '-iwholename',
  '-regex',
  '-iregex',
  '-regextype',
  '-lname',
  '-ilname',
  '-type',
  '-xtype',
  '-size',
  '-mtime',
  '-mmin',
  '-atime',
  '-amin',
  '-ctime',
  '-cmin',
  '-used',
  '-maxdepth',
  '-mindepth',
  '-perm',
  '-user',
  '-group',
  '-uid',
  '-gid',
  '-links',
  '-inum',
  '-printf',
  '-fstype',
  '-context',
]);
export const WITH_PATH = new Set(['-newer', '-anewer', '-cnewer', '-samefile', '-files0-from']);
export const NEWER_XY = /^-newer[aBcmt][aBcmt]$/;
const EXEC = /^-(exec|execdir|ok|okdir)$/;
const WRITES = /^-(delete|fprint|fprint0|fprintf|fls)$/;

export const find: ReadSpec = {
  operands: 'data',
  check(cmd, a, scope) {
    const args = a.operands;
    let i = 0;
    let follow = false;
    for (; i < args.length; i++) {
      const v = args[i].value;
      if (v === '-L') follow = true;
      else if (v === '-D') i++;
      else if (!/^-[HP]$|^-O\d$/.test(v)) break;
    }
    const starts: Word[] = [];
    while (i < args.length && !/^[-(!),]/.test(args[i].value) && args[i].static) starts.push(args[i++]);
    if (!starts.length) starts.push({ value: '.', pattern: '.', static: true, source: '.' });
    follow ||= args.some((w) => w.value === '-follow');
    const inner: Finding[] = [];
    for (; i < args.length; i++) {
      const w = args[i];
      if (!w.static) return no(`${w.source} is computed`);
      const v = w.value;
      if (FLAGS.has(v)) continue;
      if (WITH_VALUE.has(v) || NEWER_XY.test(v)) {
        if (++i >= args.length) return no(`${v} needs a value`);
        if (!args[i].static) return no(`${args[i].source} is computed`);
        if (NEWER_XY.test(v) && v.endsWith('t')) continue;
        if (NEWER_XY.test(v)) {
          const why = scope.readProblem(args[i]);
          if (why) return no(why);
        }
        continue;
      }
      if (WITH_PATH.has(v)) {
        const why = i + 1 < args.length ? scope.readProblem(args[++i]) : `${v} needs a file`;
        if (why) return no(why);
        continue;
      }
      if (WRITES.test(v)) return no(`${v} writes or deletes files`);
      if (EXEC.test(v)) {
        const end = args.findIndex((x, k) => k > i && (x.value === ';' || x.value === '+'));
        const last = end < 0 ? args.length : end;
        const words = args.slice(i + 1, last).map((x) => found(x, starts, follow));
        if (!words.length) return no(`${v} without a command`);
        inner.push(...scope.argv(words));
        i = last;
        continue;
      }
      return no(`${v} is not a find test or action we know`);
    }
    for (const s of starts) {
      const why = scope.readProblem(s, follow ? { follow: true, skipHidden: false } : undefined);
      if (why) return no(why);
    }
    return { ok: true, findings: [{ effect: 'read', detail: describe(cmd) }, ...inner] };
  },
};

/** `{}` is a file below the start paths; `{}` inside a longer word may be code, so unknown. */
function found(w: Word, starts: Word[], follow: boolean): Word {
  if (w.value === '{}') return { value: '{}', pattern: '{}', static: false, source: '{}', under: { starts, follow } };
  if (w.value.includes('{}')) return { value: '\u0000', pattern: '\u0000', static: false, source: w.source };
  return w;
}
