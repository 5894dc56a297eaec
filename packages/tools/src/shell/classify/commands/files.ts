// Commands that change files: what they touch decides write, destructive or blocked.
import { posix } from 'node:path';
import { hasFlag, parseOptions } from '../options.js';
import { criticalTarget, isDevice } from '../paths.js';
import {
  block,
  describe,
  destroy,
  read,
  write,
  type Finding,
  type Handler,
  type Scope,
  type SimpleCommand,
} from '../types.js';
import { expandGlob } from '../allow/tree.js';
import { hasGlob, UNKNOWN, type Word } from '../words.js';

/** Every path the words name, globs expanded; empty when one of them is not known before it runs. */
export function resolved(words: Word[], scope: Scope): string[] {
  const out: string[] = [];
  for (const w of words) {
    const abs = scope.resolve(w);
    if (!abs) return [];
    if (!hasGlob(w)) {
      out.push(abs);
      continue;
    }
    const matches = expandGlob(w.pattern, w.value.startsWith('/') ? '/' : (scope.cwd ?? '/'));
    if (!matches) return [];
    out.push(...(matches.length ? matches : [abs]));
  }
  return out;
}

/** A source read by cp, mv or ln must be ours: copying /etc/shadow in is not an edit. */
function foreignSource(cmd: SimpleCommand, sources: Word[], scope: Scope): Finding[] | undefined {
  for (const s of sources) {
    const why = scope.readProblem(s);
    if (why) return [{ effect: 'execute', detail: describe(cmd, `reads ${s.source}: ${why}`) }];
  }
  return undefined;
}

/** A recursive operation on `/`, `/usr`, `~`, `/*`...: blocked. */
function critical(cmd: SimpleCommand, targets: Word[], scope: Scope, verb: string): Finding[] | undefined {
  for (const w of targets) {
    const abs = scope.resolve(w);
    const what = abs && criticalTarget(abs, w, scope.home);
    if (what) return block(cmd, `${verb} ${what}`);
  }
  return undefined;
}

/** `rm -rf "$DIR/"` deletes `/` when DIR is empty. */
function emptyVarWarning(targets: Word[]): string | undefined {
  const w = targets.find((t) => !t.static && t.value.startsWith(UNKNOWN) && /^\u0000+\/+(\*|\.\*)?$/.test(t.value));
  const name = w && /\$\{?[A-Za-z_][A-Za-z0-9_]*/.exec(w.source)?.[0].replace('{', '');
  return w ? `if ${name ?? 'the variable'} is empty, ${w.source} is the root directory` : undefined;
}

export const rm: Handler = (cmd, scope) => {
  const o = parseOptions(cmd.args, { longArgs: ['interactive'] });
  const recursive = hasFlag(o, 'rR', ['recursive']);
  if (o.long.has('no-preserve-root')) return block(cmd, 'disables the protection of /');
  if (recursive) {
    const hit = critical(cmd, o.positional, scope, 'deletes');
    if (hit) return hit;
  }
  const [f] = destroy(cmd, undefined, resolved(o.positional, scope));
  const warning = recursive ? emptyVarWarning(o.positional) : undefined;
  return [warning ? { ...f, warning } : f];
};

export const unlink: Handler = (cmd, scope) => destroy(cmd, undefined, resolved(cmd.args, scope));

export const rmdir: Handler = (cmd, scope) =>
  write(cmd, 'removes empty directories', resolved(parseOptions(cmd.args).positional, scope));

export const shred: Handler = (cmd, scope) => {
  const o = parseOptions(cmd.args, { shortArgs: 'nsx', longArgs: ['iterations', 'size', 'random-source'] });
  const paths = resolved(o.positional, scope);
  if (paths.some(isDevice)) return block(cmd, 'overwrites a disk');
  return destroy(cmd, 'overwrites file contents', paths);
};

export const truncate: Handler = (cmd, scope) => {
  const o = parseOptions(cmd.args, { shortArgs: 'rs', longArgs: ['reference', 'size'] });
  const paths = resolved(o.positional, scope);
  if (paths.some(isDevice)) return block(cmd, 'writes to a disk');
  return destroy(cmd, 'changes file sizes', paths);
};

export const dd: Handler = (cmd, scope) => {
  for (const w of cmd.args) {
    if (!w.value.startsWith('of=')) continue;
    const target = scope.resolve({ ...w, value: w.value.slice(3) });
    if (target && isDevice(target)) return block(cmd, `writes to the block device ${target}`);
  }
  return destroy(cmd, 'copies raw bytes');
};

export const mkfs: Handler = (cmd) => block(cmd, 'formats a file system');

/** fdisk, parted and friends: listing is fine, anything else rewrites a partition table. */
export const partition: Handler = (cmd) => {
  const o = parseOptions(cmd.args);
  if (hasFlag(o, 'l', ['list']) || cmd.args.some((w) => w.value === 'print')) return read(cmd);
  return destroy(cmd, 'changes partition tables');
};

/** mv/cp: overwriting an existing file is destructive; -n never overwrites. */
function transfer(cmd: SimpleCommand, scope: Scope, kind: 'mv' | 'cp'): Finding[] {
  const o = parseOptions(cmd.args, {
    shortArgs: 'tS',
    longArgs: ['target-directory', 'suffix', 'backup', 'reflink', 'sparse', 'preserve', 'no-preserve'],
  });
  const noClobber = hasFlag(o, 'n', ['no-clobber', 'update']) || (o.short.has('u') && kind === 'cp');
  const backup = hasFlag(o, 'b', ['backup']);
  const targetDir = o.values.get('-t')?.[0] ?? o.values.get('--target-directory')?.[0];
  const sources = targetDir ? o.positional : o.positional.slice(0, -1);
  const dest = targetDir ?? o.positional[o.positional.length - 1];
  if (kind === 'mv') {
    const hit = critical(cmd, sources, scope, 'moves');
    if (hit) return hit;
  }
  const destAbs = dest ? scope.resolve(dest) : undefined;
  if (destAbs && isDevice(destAbs)) return block(cmd, `writes to the block device ${destAbs}`);
  const paths = resolved(kind === 'mv' ? [...sources, ...(dest ? [dest] : [])] : dest ? [dest] : [], scope);
  if (noClobber || backup) return write(cmd, undefined, paths);
  if (!destAbs) {
    return kind === 'mv'
      ? destroy(cmd, 'may overwrite files: the destination is not known before it runs', paths)
      : write(cmd, undefined, paths);
  }
  const overwritten: string[] = [];
  if (scope.isDirectory(destAbs)) {
    for (const s of sources) {
      const target = s.static ? posix.join(destAbs, posix.basename(s.value)) : undefined;
      if (!target)
        return kind === 'mv'
          ? destroy(cmd, 'may overwrite files in the destination', paths)
          : write(cmd, undefined, paths);
      if (scope.exists(target)) overwritten.push(target);
    }
  } else if (scope.exists(destAbs)) overwritten.push(destAbs);
  if (overwritten.length)
    return destroy(cmd, `overwrites ${overwritten.map((p) => posix.basename(p)).join(', ')}`, paths);
  return write(cmd, undefined, paths);
}

/** A write that reads a file from outside is not an edit; anything worse keeps its verdict. */
function sourcesChecked(cmd: SimpleCommand, scope: Scope, out: Finding[], sources: Word[]): Finding[] {
  return out.every((f) => f.effect === 'write') ? (foreignSource(cmd, sources, scope) ?? out) : out;
}

function sourcesOf(cmd: SimpleCommand): Word[] {
  const o = parseOptions(cmd.args, {
    shortArgs: 'tS',
    longArgs: ['target-directory', 'suffix', 'backup', 'reflink', 'sparse', 'preserve', 'no-preserve'],
  });
  return o.values.has('-t') || o.values.has('--target-directory') ? o.positional : o.positional.slice(0, -1);
}

export const mv: Handler = (cmd, scope) => sourcesChecked(cmd, scope, transfer(cmd, scope, 'mv'), sourcesOf(cmd));
export const cp: Handler = (cmd, scope) => sourcesChecked(cmd, scope, transfer(cmd, scope, 'cp'), sourcesOf(cmd));

export const ln: Handler = (cmd, scope) => {
  const o = parseOptions(cmd.args, { shortArgs: 'tS', longArgs: ['target-directory', 'suffix', 'backup'] });
  const dest = o.positional[o.positional.length - 1];
  const destAbs = dest && o.positional.length > 1 ? scope.resolve(dest) : undefined;
  if (hasFlag(o, 'f', ['force']) && destAbs && scope.exists(destAbs) && !scope.isDirectory(destAbs)) {
    return destroy(cmd, `replaces ${posix.basename(destAbs)}`, [destAbs]);
  }
  // A link to a file outside the roots (hard or symbolic) makes it readable as if it were ours.
  const targets = o.positional.length > 1 ? o.positional.slice(0, -1) : o.positional;
  return sourcesChecked(cmd, scope, write(cmd, undefined, destAbs ? [destAbs] : []), targets);
};

/** chmod/chown/chgrp: one file is a write, -R is destructive, -R on the system is blocked. */
export const chmod: Handler = (cmd, scope) => {
  const o = parseOptions(cmd.args, { longArgs: ['reference', 'from'] });
  const targets = o.positional.slice(1);
  if (hasFlag(o, 'R', ['recursive'])) {
    const hit = critical(cmd, targets, scope, 'changes permissions of');
    if (hit) return hit;
    return destroy(cmd, 'recursive', resolved(targets, scope));
  }
  return write(cmd, undefined, resolved(targets, scope));
};

export const touch: Handler = (cmd, scope) => {
  const o = parseOptions(cmd.args, { shortArgs: 'dtr', longArgs: ['date', 'reference', 'time'] });
  return write(cmd, undefined, resolved(o.positional, scope));
};

export const mkdir: Handler = (cmd, scope) => {
  const o = parseOptions(cmd.args, { shortArgs: 'mZ', longArgs: ['mode', 'context'] });
  return write(cmd, undefined, resolved(o.positional, scope));
};

/** tee FILE truncates FILE like `>` does; tee -a appends. */
export const tee: Handler = (cmd, scope) => {
  const o = parseOptions(cmd.args, { longArgs: ['output-error'] });
  if (o.positional.length === 0) return read(cmd);
  const paths = resolved(o.positional, scope);
  if (paths.some(isDevice)) return block(cmd, 'writes to a disk');
  const unknown = paths.length < o.positional.length;
  if (!hasFlag(o, 'a', ['append'])) {
    const existing = paths.filter((p) => scope.exists(p) && !scope.isDirectory(p));
    if (existing.length) return destroy(cmd, `truncates ${existing.map((p) => posix.basename(p)).join(', ')}`, paths);
    if (unknown) return destroy(cmd, 'may truncate a file whose path is not known before it runs', paths);
  }
  return write(cmd, undefined, paths);
};
