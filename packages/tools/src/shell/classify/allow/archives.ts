// Archives listed or printed, never extracted to disk: `tar -tf`, `tar -xOf` (members to stdout),
// `unzip -l`/`-v`/`-t`/`-p`/`-z`, `zipinfo`. Options that run programs (tar -I, --to-command,
// --checkpoint-action), read a list of names from a file we have not checked, or page through
// `more` are not in the tables: they ask. Extracting is the handlers' part (commands/system.ts).
import type { Word } from '../words.js';
import type { Card } from './card.js';
import { getopt, has, table } from './getopt.js';
import { no, OK, type ReadSpec, type Verdict } from './spec.js';

const std = 'help version';

const TAR_OPTIONS = table(
  'txOvzjJaZwf@',
  `list extract get to-stdout verbose gzip gunzip ungzip bzip2 xz lzma lzip lzop zstd auto-compress file=@ wildcards no-wildcards anchored no-anchored wildcards-match-slash no-wildcards-match-slash ignore-case no-ignore-case exclude= occurrence? numeric-owner utc full-time block-number quoting-style= quote-chars= no-quote-chars= show-transformed-names show-stored-names null no-null verbatim-files-from no-verbatim-files-from unquote no-unquote ${std}`,
);

/** Old-style `tar tzf a.tgz`: each letter an option, the ones taking a value take the next words in order. */
function modernized(args: Word[]): Word[] {
  const first = args[0];
  if (!first || first.value.startsWith('-') || !first.static || !/^[A-Za-z]+$/.test(first.value)) return args;
  const out: Word[] = [];
  let next = 1;
  for (const c of first.value) {
    out.push({ ...first, value: `-${c}`, pattern: `-${c}` });
    if (TAR_OPTIONS.short.get(c)?.kind === 'path' && next < args.length) out.push(args[next++]);
  }
  return [...out, ...args.slice(next)];
}

const tar: ReadSpec = {
  operands: 'data',
  check: (_cmd, _a, scope): Verdict => {
    const parsed = getopt(modernized(_cmd.args), TAR_OPTIONS);
    if (!parsed.ok) return no(parsed.why);
    const lists = has(parsed, '-t', '--list');
    const toStdout = has(parsed, '-x', '--extract', '--get') && has(parsed, '-O', '--to-stdout');
    if (!lists && !toStdout) return no('only listing (-t) or extracting to stdout (-xO) is a read');
    const archives = parsed.options.filter((o) => o.name === '-f' || o.name === '--file').map((o) => o.value!);
    // `-f host:file` is a remote archive reached over rsh.
    for (const w of archives) {
      if (/^[^/]*:/.test(w.value)) return no(`${w.source} is a remote archive`);
      const why = scope.readProblem(w);
      if (why) return no(why);
    }
    return OK;
  },
};

/** unzip's and zipinfo's first operand is the archive (which they may expand as a wildcard themselves). */
function zipArchive(operands: Word[], read: (w: Word) => string | undefined): Verdict {
  const archive = operands[0];
  if (!archive) return no('no archive named');
  if (/[*?[]/.test(archive.value))
    return no(`${archive.source}: the archive name is expanded as a wildcard by the command itself`);
  const why = read(archive);
  return why ? no(why) : OK;
}

const unzip: ReadSpec = {
  // -T rewrites the archive's time, -M pages through `more`, -d names where files go.
  options: table('lvtpzqCUxZ12hmsT!M!d!:', std),
  operands: 'data',
  check: (_cmd, a, scope) => {
    if (!has(a, '-l', '-v', '-t', '-p', '-z', '-Z'))
      return no('unzip extracts files unless told to list (-l), test (-t) or print (-p)');
    return zipArchive(a.operands, (w) => scope.readProblem(w));
  },
};

const zipinfo: ReadSpec = {
  options: table('12smlvhtTzCxM!', std),
  operands: 'data',
  check: (_cmd, a, scope) => zipArchive(a.operands, (w) => scope.readProblem(w)),
};

export const ARCHIVE_CARDS: Card[] = [
  {
    names: ['tar'],
    worst: 'execute',
    spec: tar,
    examples: {
      read: [
        'tar -tf a.tar',
        'tar tzf a.tgz',
        'tar -tvf a.tar x/',
        'tar --list --file=a.tar',
        'tar -xOzf a.tgz package/package.json',
      ],
      asks: ['tar -tf OUT/a.tar', 'tar -tf h:a.tar', 'tar --li -f a.tar'],
      edit: ['tar -xzf a.tgz', 'tar -cf new.tar a.txt'],
      code: ['tar -t -I sh -f a.tar', 'tar -xOf a.tar --to-command=id', 'tar -xf a.tar -C OUT'],
    },
  },
  {
    names: ['unzip'],
    // Extracting where -d points, outside the workspace too.
    worst: 'execute',
    spec: unzip,
    examples: {
      read: [
        'unzip -l a.zip',
        'unzip -v a.zip',
        'unzip -t a.zip',
        'unzip -p a.zip x.txt',
        'unzip -qq -l a.zip',
        'unzip -Z -1 a.zip',
      ],
      asks: ["unzip -l '*.zip'", 'unzip -l OUT/a.zip', 'unzip -l -M a.zip', 'unzip -T -l a.zip'],
      edit: ['unzip a.zip', 'unzip -o a.zip -d build'],
      code: ['unzip a.zip -d OUT'],
    },
  },
  {
    names: ['zipinfo'],
    worst: 'read',
    spec: zipinfo,
    examples: {
      read: ['zipinfo a.zip', 'zipinfo -1 a.zip', 'zipinfo -l a.zip x.txt'],
      asks: ['zipinfo OUT/a.zip', 'zipinfo -M a.zip'],
    },
  },
];
