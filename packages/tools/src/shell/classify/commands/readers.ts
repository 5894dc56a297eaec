// Readers with one or two options that do more: what those options make them.
import { hasFlag, parseOptions } from '../options.js';
import { execute, read, write, type Handler } from '../types.js';
import { resolved } from './files.js';

/** sort -o writes; --compress-program runs a program. */
export const sort: Handler = (cmd, scope) => {
  const o = parseOptions(cmd.args, {
    shortArgs: 'koStT',
    longArgs: [
      'key',
      'output',
      'field-separator',
      'temporary-directory',
      'compress-program',
      'buffer-size',
      'files0-from',
      'parallel',
      'sort',
      'random-source',
      'batch-size',
    ],
  });
  if (o.long.has('compress-program')) return execute(cmd, 'runs a compression program');
  if (o.long.has('temporary-directory') || o.values.has('-T'))
    return execute(cmd, 'writes temporary files where it is told');
  const out = [...(o.values.get('-o') ?? []), ...(o.values.get('--output') ?? [])];
  if (out.length) return write(cmd, 'writes its output to a file', resolved(out, scope));
  if (o.dynamic && o.positional.some((w) => !w.static)) return execute(cmd, 'computed arguments cannot be checked');
  return read(cmd);
};

/** `uniq IN OUT` writes OUT. */
export const uniq: Handler = (cmd, scope) => {
  const o = parseOptions(cmd.args, {
    shortArgs: 'fsw',
    longArgs: ['skip-fields', 'skip-chars', 'check-chars', 'all-repeated', 'group'],
  });
  if (o.positional.length >= 2)
    return write(cmd, 'writes its output to a file', resolved(o.positional.slice(1, 2), scope));
  if (o.dynamic) return execute(cmd, 'computed arguments cannot be checked');
  return read(cmd);
};

/** `xxd IN OUT` writes OUT. */
export const xxd: Handler = (cmd, scope) => {
  const o = parseOptions(cmd.args, { shortArgs: 'cgnlos', longArgs: [] });
  if (o.positional.length >= 2)
    return write(cmd, 'writes its output to a file', resolved(o.positional.slice(1, 2), scope));
  if (o.dynamic) return execute(cmd, 'computed arguments cannot be checked');
  return read(cmd);
};

export const tree: Handler = (cmd, scope) => {
  const o = parseOptions(cmd.args, { shortArgs: 'LPIo', longArgs: ['filelimit', 'timefmt', 'charset', 'sort'] });
  if (o.values.has('-o')) return write(cmd, 'writes its output to a file', resolved(o.values.get('-o')!, scope));
  if (o.dynamic) return execute(cmd, 'computed arguments cannot be checked');
  return read(cmd);
};

export const less: Handler = (cmd) => {
  const o = parseOptions(cmd.args, { shortArgs: 'oOpPxhbjyzk', longArgs: ['log-file', 'LOG-FILE'] });
  if (o.values.has('-o') || o.values.has('-O') || o.long.has('log-file') || o.long.has('LOG-FILE'))
    return write(cmd, 'writes a log file');
  if (o.dynamic) return execute(cmd, 'computed arguments cannot be checked');
  return read(cmd);
};

export const man: Handler = (cmd) => {
  const o = parseOptions(cmd.args, { shortArgs: 'PHMLmSsCER', longArgs: ['pager', 'html', 'manpath', 'sections'] });
  if (hasFlag(o, 'PH', ['pager', 'html', 'browser'])) return execute(cmd, 'runs a pager or browser of its choice');
  return read(cmd);
};

export const date: Handler = (cmd) => {
  const o = parseOptions(cmd.args, { shortArgs: 'dfrsI', longArgs: ['date', 'file', 'reference', 'set'] });
  if (o.values.has('-s') || o.long.has('set')) return execute(cmd, 'sets the system clock');
  return read(cmd);
};

export const hostname: Handler = (cmd) => {
  const o = parseOptions(cmd.args, { shortArgs: 'F', longArgs: ['file'] });
  if (o.positional.length || o.values.has('-F') || o.long.has('file')) return execute(cmd, 'sets the host name');
  return read(cmd);
};

/** rg --pre runs a program on every file searched. */
export const rg: Handler = (cmd) => {
  const o = parseOptions(cmd.args, {
    shortArgs: 'eEfgjmMABCtTr',
    longArgs: [
      'regexp',
      'file',
      'glob',
      'iglob',
      'type',
      'type-not',
      'max-count',
      'after-context',
      'before-context',
      'context',
      'pre',
      'pre-glob',
      'encoding',
      'replace',
      'threads',
      'max-depth',
      'max-columns',
      'path-separator',
      'type-add',
      'sort',
      'sortr',
      'colors',
      'color',
      'ignore-file',
      'engine',
      'dfa-size-limit',
      'regex-size-limit',
      'max-filesize',
      'context-separator',
      'field-context-separator',
      'field-match-separator',
    ],
  });
  if (o.long.has('pre')) return execute(cmd, '--pre runs a program on every file');
  if (o.dynamic) return execute(cmd, 'computed arguments cannot be checked');
  return read(cmd);
};

/** ag --pager runs a program. */
export const ag: Handler = (cmd) => {
  const o = parseOptions(cmd.args, {
    shortArgs: 'ABCGgmp',
    longArgs: [
      'pager',
      'after',
      'before',
      'context',
      'file-search-regex',
      'max-count',
      'path-to-ignore',
      'depth',
      'ignore',
    ],
  });
  if (o.long.has('pager')) return execute(cmd, '--pager runs a program');
  if (o.dynamic) return execute(cmd, 'computed arguments cannot be checked');
  return read(cmd);
};

/** file -C compiles a magic file next to it. */
export const file: Handler = (cmd) => {
  const o = parseOptions(cmd.args, {
    shortArgs: 'emfFmP',
    longArgs: ['exclude', 'files-from', 'separator', 'magic-file', 'parameter'],
  });
  if (o.short.has('C') || o.long.has('compile')) return write(cmd, 'compiles a magic file');
  return read(cmd);
};
