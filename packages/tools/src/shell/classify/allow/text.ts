// Searching and text tools: grep, ripgrep, fd, sed, awk, jq, sort, uniq, diff and the readers
// with a mode that writes (xxd OUT, tree -o, date -s). Scripts given to sed and awk are read too.
import { awkProgramPower, sedScriptFacts } from '../commands/sed-awk.js';
import { escapeAll, type Word } from '../words.js';
import { has, table, valuesOf } from './getopt.js';
import { no, OK, type Args, type ReadSpec } from './spec.js';
import type { WalkMode } from './tree.js';

const std = 'help version';

const values = (a: Args, ...names: string[]): string[] => valuesOf(a, ...names).map((w) => w.value);

/** grep -r reads every file below, but the directories and files its globs skip. */
const grepRecursive = (a: Args): WalkMode | undefined => {
  const dirs = valuesOf(a, '-d', '--directories').some((w) => w.value === 'recurse' || w.value === 'r');
  const follow = has(a, '-R', '--dereference-recursive');
  if (!follow && !has(a, '-r', '--recursive') && !dirs) return undefined;
  const skipDirs = values(a, '--exclude-dir');
  const skipFiles = values(a, '--exclude');
  const onlyFiles = values(a, '--include');
  return {
    follow,
    skipHidden: false,
    ...(skipDirs.length ? { skipDirs } : {}),
    ...(skipFiles.length ? { skipFiles } : {}),
    ...(onlyFiles.length ? { onlyFiles } : {}),
  };
};

const GREP: ReadSpec = {
  options: table(
    'EFGPiyvwxcLlmoqsbHhnTZzaIrRUVm:A:B:C:d:D:e:f@',
    `extended-regexp fixed-strings basic-regexp perl-regexp regexp= file=@ ignore-case no-ignore-case word-regexp line-regexp null-data no-messages invert-match max-count= byte-offset line-number no-line-number line-buffered with-filename no-filename label= only-matching quiet silent binary-files= text directories= devices= recursive dereference-recursive include= exclude= exclude-from=@ exclude-dir= files-without-match files-with-matches count initial-tab null context= before-context= after-context= color? colour? binary ${std}`,
    { complete: true, numeric: true },
  ),
  operands: 'pattern-paths',
  patternOptions: ['-e', '--regexp', '-f', '--file'],
  recursive: grepRecursive,
  defaultDir: true,
};

// -u is --no-ignore; -uu adds --hidden. A --glob that matches overrides both hidden and ignore
// rules (walk-tree.ts models that); --iglob is not modelled: the walk then skips nothing.
const rgIglob = (a: Args) => has(a, '--iglob', '--glob-case-insensitive');
const rgHidden = (a: Args) =>
  rgIglob(a) || has(a, '--hidden', '-.', '--unrestricted') || a.options.filter((o) => o.name === '-u').length >= 2;
const rgGlobs = (a: Args) => (rgIglob(a) ? [] : values(a, '-g', '--glob'));
const rgNoIgnore = (a: Args) =>
  rgIglob(a) ||
  has(
    a,
    '-u',
    '--unrestricted',
    '--no-ignore',
    '--no-ignore-dot',
    '--no-ignore-vcs',
    '--no-ignore-files',
    '--no-ignore-exclude',
    '--no-ignore-parent',
  );

const RG: ReadSpec = {
  // ripgrep parses options itself: exact names only. --pre and --hostname-bin run programs.
  options: table(
    'acFHhiILlNnopqSsUuVvwxz0.A:B:C:E:e:f@g:j:M:m:r:T:t:d:',
    `text after-context= before-context= context= count count-matches encoding= regexp= file=@ files files-with-matches files-without-match fixed-strings follow glob= iglob= glob-case-insensitive heading no-heading hidden no-hidden ignore-case ignore-file=@ ignore-file-case-insensitive invert-match json no-json line-number no-line-number line-regexp max-columns= max-columns-preview max-count= max-depth= max-filesize= mmap no-mmap multiline multiline-dotall no-config no-ignore no-ignore-dot no-ignore-exclude no-ignore-files no-ignore-global no-ignore-messages no-ignore-parent no-ignore-vcs no-messages null null-data one-file-system only-matching passthru path-separator= pcre2 no-pcre2 quiet regex-size-limit= dfa-size-limit= replace= search-zip no-search-zip smart-case case-sensitive sort= sortr= stats no-stats threads= trim no-trim type= type-not= type-add= type-clear= type-list unrestricted vimgrep with-filename no-filename word-regexp column no-column color= colors= context-separator= no-context-separator field-context-separator= field-match-separator= crlf no-crlf engine= auto-hybrid-regex no-unicode binary no-binary block-buffered line-buffered byte-offset files-with-matches include-zero no-require-git no-follow pretty max-depth= !pre= !pre-glob= !hostname-bin= hyperlink-format= generate= ${std}`,
  ),
  operands: 'pattern-paths',
  // --files and --type-list take no pattern: every operand is a path.
  patternOptions: ['-e', '--regexp', '-f', '--file', '--files', '--type-list'],
  recursive: (a) => {
    const globs = rgGlobs(a);
    return {
      follow: has(a, '-L', '--follow'),
      skipHidden: !rgHidden(a),
      ...(rgNoIgnore(a) ? {} : { ignoreFiles: true }),
      ...(globs.length ? { globs } : {}),
    };
  },
  defaultDir: true,
};

const FD: ReadSpec = {
  options: table(
    'HIusigFalL0phVc:d:t:e:E:j:S:o:x!X!',
    `hidden no-hidden no-ignore no-ignore-vcs no-ignore-parent unrestricted case-sensitive ignore-case glob regex fixed-strings and= absolute-path relative-path list-details follow full-path print0 max-depth= min-depth= exact-depth= prune type= extension= exclude= ignore-file=@ color= threads= size= changed-within= changed-before= newer= older= owner= format= max-results= one-file-system base-directory= path-separator= search-path= strip-cwd-prefix? show-errors quiet !exec !exec-batch ${std}`,
  ),
  // fd lists names, never contents: no walk for secrets, but the directories must be ours.
  operands: 'pattern-paths',
};

export const sed: ReadSpec = {
  options: table(
    'nrEsuzl:e:f!@i!?',
    `quiet silent regexp-extended separate unbuffered null-data zero-terminated line-length= expression= debug posix sandbox !file=@ !in-place? !follow-symlinks !binary ${std}`,
    { complete: true },
  ),
  operands: 'data',
  check: (_cmd, a, scope) => {
    const scripts = valuesOf(a, '-e', '--expression');
    const files = scripts.length ? a.operands : a.operands.slice(1);
    if (!scripts.length) {
      if (!a.operands.length) return OK;
      scripts.push(a.operands[0]);
    }
    const computed = scripts.find((w) => !w.static);
    if (computed) return no('the sed script is computed');
    // sed joins its -e scripts with newlines before reading them (`-e 'a\\' -e 'text'`).
    const facts = sedScriptFacts(scripts.map((w) => w.value).join('\n'));
    if (facts.power !== 'read')
      return no(facts.power === 'write' ? 'the script writes files' : 'the script runs commands or is not understood');
    for (const r of facts.reads) {
      const why = scope.readProblem({ value: r, pattern: escapeAll(r), static: true, source: r });
      if (why) return no(`the script reads ${r}: ${why}`);
    }
    for (const f of files) {
      const why = scope.readProblem(f);
      if (why) return no(why);
    }
    return OK;
  },
};

const AWK_VAR = /^[A-Za-z_][A-Za-z0-9_]*=/;

export const awk: ReadSpec = {
  options: table(
    // -d/--dump-variables, -p/--profile and -o/--pretty-print write a file (awkvars.out,
    // awkprof.out or the one named); -D/--debug runs gawk's debugger.
    'bcCghlLMnNOPrStVYv:F:f!@i!:l!:E!@W:e:o!?p!?d!?D!?L?',
    `characters-as-bytes traditional copyright !dump-variables? !debug? gen-pot lint? bignum use-lc-numeric non-decimal-data optimize no-optimize posix re-interval sandbox field-separator= assign= source= csv !file=@ !exec=@ !include= !load= !profile? !pretty-print? ${std}`,
  ),
  operands: 'data',
  // awk's options end at the program.
  stopAtOperand: true,
  check: (_cmd, a, scope) => {
    const sources = valuesOf(a, '-e', '--source');
    const rest = sources.length ? a.operands : a.operands.slice(1);
    const programs = sources.length ? sources : a.operands.slice(0, 1);
    for (const p of programs) {
      if (!p.static) return no('the awk program is computed');
      const power = awkProgramPower(p.value);
      if (power !== 'read')
        return no(power === 'write' ? 'the program writes files' : 'the program runs commands or reads files it names');
    }
    for (const w of rest) {
      if (w.static && AWK_VAR.test(w.value)) continue;
      const why = scope.readProblem(w);
      if (why) return no(why);
    }
    if (valuesOf(a, '-W').length) return no('-W options are not checked');
    return OK;
  },
};

/** jq: a filter then files; `--arg NAME VALUE` takes two words, `--slurpfile NAME FILE` reads FILE. */
const jq: ReadSpec = {
  operands: 'data',
  check: (_cmd, a, scope) => {
    const words = a.operands;
    let program: Word | undefined;
    let argsMode = false;
    const files: Word[] = [];
    for (let i = 0; i < words.length; i++) {
      const v = words[i].value;
      if (argsMode) continue;
      // Names below known paths (`find … | xargs jq .`) are files once the program is given.
      if (words[i].under && program) {
        files.push(words[i]);
        continue;
      }
      if (!words[i].static) return no(`${words[i].source} is computed`);
      if (v === '--args' || v === '--jsonargs') {
        argsMode = true;
        continue;
      }
      if (
        /^-[nrjacCMSseRh]+$/.test(v) ||
        /^--(null-input|raw-input|slurp|compact-output|tab|color-output|monochrome-output|ascii-output|sort-keys|raw-output|raw-output0|join-output|exit-status|seq|stream|stream-errors|unbuffered|help|version)$/.test(
          v,
        )
      )
        continue;
      if (v === '--indent') i += 1;
      else if (v.startsWith('-L') || v.startsWith('--library-path'))
        return no(`${v} adds a module directory: import and include would read files from it`);
      else if (v === '--arg' || v === '--argjson') i += 2;
      else if (v === '--slurpfile' || v === '--rawfile') {
        if (!words[i + 2]) return no(`${v} needs a name and a file`);
        files.push(words[i + 2]);
        i += 2;
      } else if (v === '-f' || v === '--from-file') {
        return no('the jq program comes from a file, which is not checked');
      } else if (v.startsWith('-') && v !== '-') return no(`${v} is not an option we know for jq`);
      else if (!program) program = words[i];
      else files.push(words[i]);
    }
    const power = program ? jqProgramProblem(program.value) : undefined;
    if (power) return no(power);
    for (const f of files) {
      const why = scope.readProblem(f);
      if (why) return no(why);
    }
    return OK;
  },
};

/**
 * What a jq program does beyond its input: `env` and `$ENV` print the environment (like `env`,
 * they ask); `import`, `include` and `modulemeta` read modules and data files (`import "credentials"
 * as $c` reads credentials.json) from the search path. `input`/`inputs` read the files on the
 * command line, which are checked like any other.
 */
function jqProgramProblem(program: string): string | undefined {
  if (/(?<![.$\w])(import|include|modulemeta)\b/.test(program))
    return 'the program loads jq modules or data files (import, include)';
  if (/(?<![.$\w])env\b|\$ENV\b|\$__prog_args\b/.test(program))
    return 'the program reads the environment (env, $ENV), like printenv';
  return undefined;
}

const SORT: ReadSpec = {
  options: table(
    'bdfgiMhnRrVcCmsuzk:t:S:T!:o!:',
    `ignore-leading-blanks dictionary-order ignore-case general-numeric-sort ignore-nonprinting month-sort human-numeric-sort numeric-sort random-sort random-source=@ reverse sort= version-sort batch-size= check? merge key= field-separator= buffer-size= stable unique zero-terminated parallel= debug files0-from=@ !output= !temporary-directory= !compress-program= ${std}`,
    { complete: true },
  ),
  operands: 'paths',
};

const UNIQ: ReadSpec = {
  options: table(
    'cdDiuzf:s:w:',
    `count repeated all-repeated? skip-fields= skip-chars= ignore-case unique zero-terminated check-chars= group? ${std}`,
    {
      complete: true,
      numeric: true,
    },
  ),
  operands: 'paths',
  maxOperands: 1,
};

const DIFF: ReadSpec = {
  options: table(
    'abBdeEfiNnpqrstTuwyZc:C?D:F:I:lL:S:U?W:x:X@',
    `normal brief report-identical-files context? unified? ed rcs side-by-side width= left-column suppress-common-lines show-c-function show-function-line= label= expand-tabs initial-tab tabsize= suppress-blank-empty paginate recursive no-dereference new-file unidirectional-new-file ignore-case ignore-file-name-case no-ignore-file-name-case ignore-tab-expansion ignore-trailing-space ignore-space-change ignore-all-space ignore-blank-lines ignore-matching-lines= text strip-trailing-cr starting-file= exclude= exclude-from=@ from-file=@ to-file=@ minimal horizon-lines= speed-large-files old-group-format= new-group-format= unchanged-group-format= changed-group-format= line-format= old-line-format= new-line-format= unchanged-line-format= color? palette= ${std}`,
    { complete: true, numeric: true },
  ),
  operands: 'paths',
  recursive: (a) =>
    has(a, '-r', '--recursive') ? { follow: !has(a, '--no-dereference'), skipHidden: false } : undefined,
};

const XXD: ReadSpec = {
  options: table(
    'abCeEiprudhvuRc:g:l:n:o:s:',
    `autoskip bits capitalize decimal ebcdic include plain postscript ps revert uppercase cols= groupsize= len= name= offset= seek= ${std}`,
  ),
  operands: 'paths',
  maxOperands: 1,
  check: (_c, a) => (has(a, '-r', '-revert') ? no('-r writes binary output') : OK),
};

const FILE: ReadSpec = {
  options: table(
    'bcEhiklLnNprsvzZ0SC!e:f@F:m@P:',
    `brief checking-printout exclude= exclude-quiet= extension files-from=@ separator= mime mime-type mime-encoding keep-going list dereference no-dereference magic-file=@ no-buffer no-pad no-sandbox print0 preserve-date raw special-files uncompress uncompress-noreport parameter= apple !compile ${std}`,
    { complete: true },
  ),
  operands: 'paths',
};

const TREE: ReadSpec = {
  // tree parses its own options: exact names only. -o writes its output to a file.
  options: table(
    'adlfxRqNQpugshDFvtcUrSnCAXJiL:P:I:H:T:o!:',
    `inodes device noreport nolinks dirsfirst filesfirst du si prune matchdirs ignore-case gitignore info metafirst fromfile fflinks charset= filelimit= timefmt= sort= hintro= houtro= gitfile=@ infofile=@ !output= ${std}`,
  ),
  operands: 'paths',
};

const DATE: ReadSpec = {
  options: table(
    'uRI?d:f@r@s!:',
    `date= debug file=@ iso-8601? resolution rfc-email rfc-3339= reference=@ !set= universal utc ${std}`,
    { complete: true },
  ),
  operands: 'data',
  // `date MMDDhhmm` sets the clock; only `+FORMAT` prints.
  check: (_c, a) =>
    a.operands.every((w) => w.value.startsWith('+')) ? OK : no('an operand that is not +FORMAT sets the clock'),
};

const HOSTNAME: ReadSpec = {
  options: table(
    'aAdfiIsyF!@b!',
    `alias all-fqdns domain fqdn long all-ip-addresses ip-address short yp nis !file=@ !boot ${std}`,
  ),
  operands: 'none',
};

/** gzip and friends are reads only when told to print, list or test. */
function compressor(short: string, long: string): ReadSpec {
  return {
    options: table(short, `${long} ${std}`),
    operands: 'paths',
    check: (_c, a) =>
      has(a, '-c', '-l', '-t', '--stdout', '--to-stdout', '--list', '--test')
        ? OK
        : no('it replaces files with their (de)compressed form'),
  };
}

export const TEXT: Record<string, ReadSpec> = {
  grep: GREP,
  egrep: GREP,
  fgrep: GREP,
  zgrep: GREP,
  rg: RG,
  fd: FD,
  fdfind: FD,
  sed,
  gsed: sed,
  awk,
  gawk: awk,
  mawk: awk,
  nawk: awk,
  jq,
  sort: SORT,
  uniq: UNIQ,
  diff: DIFF,
  xxd: XXD,
  file: FILE,
  tree: TREE,
  date: DATE,
  hostname: HOSTNAME,
  gzip: compressor(
    'cdfklLnNqrtvS:123456789',
    'stdout to-stdout decompress force keep list license no-name name quiet recursive suffix= test verbose fast best',
  ),
  gunzip: compressor(
    'cfklLnNqrtvS:',
    'stdout to-stdout force keep list license no-name name quiet recursive suffix= test verbose',
  ),
  bzip2: compressor(
    'cdzkfqtvsL123456789',
    'stdout decompress compress keep force quiet test verbose small license fast best',
  ),
  xz: compressor(
    'cdzktlfqvT:0123456789e',
    'stdout to-stdout decompress uncompress compress keep test list force quiet verbose threads= extreme',
  ),
};
