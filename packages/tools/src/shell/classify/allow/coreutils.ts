// GNU coreutils and the small system readers, each with every option its manual lists (so long
// options may be abbreviated as getopt allows) and what its operands are. Options that write a
// file or run a program are listed with `!`: known, and never a read.
import { table } from './getopt.js';
import type { Operands, ReadSpec } from './spec.js';

const std = 'help version';

function s(
  short: string,
  long: string,
  operands: Operands,
  extra: Partial<ReadSpec> & { numeric?: boolean; complete?: boolean } = {},
): ReadSpec {
  const { numeric, complete, ...rest } = extra;
  return {
    options: table(short, `${long} ${std}`, { complete: complete ?? true, numeric: numeric ?? false }),
    operands,
    ...rest,
  };
}

/** Interpreters asked only for their version. */
const VERSION = s('vV', '', 'none', { complete: false });

export const COREUTILS: Record<string, ReadSpec> = {
  ls: s(
    'aAbBcCdfFgGhHiklLmnNopqQrRsStuUvxXZ1DI:T:w:',
    'all almost-all author escape block-size= ignore-backups color? directory dired classify? file-type format= full-time group-directories-first no-group human-readable si dereference-command-line dereference-command-line-symlink-to-dir hide= hyperlink? indicator-style= inode ignore= kibibytes dereference numeric-uid-gid literal hide-control-chars show-control-chars quote-name quoting-style= reverse recursive size sort= time= time-style= tabsize= width= context zero',
    'paths',
  ),
  cat: s('AbeEnstTuv', 'show-all number-nonblank show-ends number squeeze-blank show-tabs show-nonprinting', 'paths'),
  tac: s('brs:', 'before regex separator=', 'paths'),
  head: s('c:n:qvz', 'bytes= lines= quiet silent verbose zero-terminated', 'paths', { numeric: true }),
  tail: s(
    'c:fFn:qs:vz',
    'bytes= follow? retry lines= max-unchanged-stats= pid= quiet silent sleep-interval= verbose zero-terminated',
    'paths',
    {
      numeric: true,
    },
  ),
  wc: s('cmlLw', 'bytes chars lines max-line-length words total= files0-from=@', 'paths'),
  nl: s(
    'pb:d:f:h:i:l:n:s:v:w:',
    'body-numbering= section-delimiter= footer-numbering= header-numbering= line-increment= join-blank-lines= number-format= no-renumber number-separator= starting-line-number= number-width=',
    'paths',
  ),
  od: s(
    'bcdfilosxvA:j:N:S?t:w?',
    'address-radix= endian= skip-bytes= read-bytes= strings? format= output-duplicates width? traditional',
    'paths',
  ),
  cut: s(
    'b:c:d:f:nsz',
    'bytes= characters= delimiter= fields= complement only-delimited output-delimiter= zero-terminated',
    'paths',
  ),
  paste: s('d:sz', 'delimiters= serial zero-terminated', 'paths'),
  join: s('a:e:io:t:v:z1:2:j:', 'ignore-case check-order nocheck-order header zero-terminated', 'paths'),
  comm: s('123z', 'check-order nocheck-order output-delimiter= total zero-terminated', 'paths'),
  cmp: s('bi:ln:sv', 'print-bytes ignore-initial= verbose bytes= quiet silent', 'paths'),
  fold: s('bsw:', 'bytes spaces width=', 'paths'),
  fmt: s('cp:stuw:g:', 'crown-margin prefix= split-only tagged-paragraph uniform-spacing width= goal=', 'paths', {
    numeric: true,
  }),
  expand: s('it:', 'initial tabs=', 'paths', { numeric: true }),
  unexpand: s('at:', 'all first-only tabs=', 'paths', { numeric: true }),
  tr: s('cCdst', 'complement delete squeeze-repeats truncate-set1', 'data'),
  tsort: s('', '', 'paths'),
  shuf: s('ei:n:rz', 'echo input-range= head-count= !output= !random-source= repeat zero-terminated', 'paths'),
  base64: s('diw:', 'decode ignore-garbage wrap=', 'paths', { maxOperands: 1 }),
  base32: s('diw:', 'decode ignore-garbage wrap=', 'paths', { maxOperands: 1 }),
  basenc: s(
    'diw:',
    'base64 base64url base32 base32hex base16 base2msbf base2lsbf z85 decode ignore-garbage wrap=',
    'paths',
    { maxOperands: 1 },
  ),
  stat: s('LfctZc:', 'dereference file-system cached= format= printf= terse', 'paths'),
  du: s(
    '0abcDhHklLmPsSxXB:d:t:',
    'null all apparent-size block-size= bytes total dereference-args no-dereference dereference count-links max-depth= human-readable inodes kilobytes si summarize separate-dirs threshold= time? time-style= exclude= exclude-from=@ one-file-system files0-from=@',
    'paths',
  ),
  df: s(
    'ahHiklPTvxB:t:x:',
    'all block-size= human-readable si inodes local no-sync output? portability print-type sync total type= exclude-type=',
    'data',
  ),
  realpath: s(
    'eEmLPqsz',
    'canonicalize-existing canonicalize-missing logical physical quiet relative-to= relative-base= strip no-symlinks zero',
    'data',
  ),
  readlink: s(
    'efmnqsvz',
    'canonicalize canonicalize-existing canonicalize-missing no-newline quiet silent verbose zero',
    'data',
  ),
  basename: s('as:z', 'multiple suffix= zero', 'data'),
  dirname: s('z', 'zero', 'data'),
  pwd: s('LP', '', 'none'),
  whoami: s('', '', 'none'),
  logname: s('', '', 'none'),
  groups: s('', '', 'data'),
  id: s('agGnruzZ', 'context group groups name real user zero', 'data'),
  uname: s(
    'asnrvmpio',
    'all kernel-name nodename kernel-release kernel-version machine processor hardware-platform operating-system',
    'none',
  ),
  arch: s('', '', 'none'),
  nproc: s('', 'all ignore=', 'none'),
  tty: s('s', 'silent quiet', 'none'),
  users: s('', '', 'none'),
  uptime: s('ps', 'pretty since', 'none', { complete: false }),
  seq: s('f:s:w', 'format= separator= equal-width', 'data', { numeric: true }),
  sleep: s('', '', 'data'),
  factor: s('h', 'exponents', 'data'),
  numfmt: s(
    'd:z',
    'debug delimiter= field= format= from= from-unit= grouping header? invalid= padding= round= suffix= to= to-unit= zero-terminated',
    'data',
  ),
  expr: { operands: 'data' },
  yes: { operands: 'data' },
  true: { operands: 'data' },
  false: { operands: 'data' },
  ':': { operands: 'data' },
  echo: { operands: 'data' },
  which: s('as', '', 'data', { complete: false }),
  whereis: s('bmsulB:M:S:f', '', 'data', { complete: false }),
  getconf: s('av:', '', 'data', { complete: false }),
  locale: s('acmkv', 'all-locales charmaps category-name keyword-name verbose', 'data'),
  free: s(
    'bkmghltvwc:s:',
    'bytes kilo mega giga tera peta kibi mebi gibi tebi pebi human lohi line total committed seconds= count= si wide',
    'none',
    {
      complete: false,
    },
  ),
  lscpu: s('abcepxyJ', 'all online offline bytes caches? extended? json parse? physical hex output-all', 'none', {
    complete: false,
  }),
  lsblk: s(
    'abdDfilmnpJrsStTzAEMPo:x:',
    'all bytes nodeps discard fs inverse list perms noheadings paths json raw scsi tree output= sort= ascii merge',
    'data',
    { complete: false },
  ),
  lsmem: s('abJnrsP', 'all bytes json noheadings raw summary? pairs', 'none', { complete: false }),
  // util-linux column: -s and -o take a separator, attached (`-s,`) or not.
  column: s(
    'tdeLJxhVn:O:N:l:E:H:R:T:W:r:i:p:c:o:s:',
    'table table-name= table-order= table-columns= table-columns-limit= table-noextreme= table-noheadings table-header-repeat table-hide= table-right= table-truncate= table-wrap= keep-empty-lines json tree= tree-id= tree-parent= output-width= output-separator= separator= fillrows',
    'paths',
    { complete: false },
  ),
  rev: s('0', 'zero', 'paths', { complete: false }),
  strings: s(
    'adfwn:t:e:T:s:U:',
    'all data print-file-name bytes= radix= encoding= target= output-separator= include-all-whitespace unicode=',
    'paths',
  ),
  hexdump: s(
    'bcCdovxLe:f@n:s:',
    'one-byte-octal one-byte-char one-byte-hex canonical two-bytes-decimal two-bytes-octal two-bytes-hex format= format-file=@ color? length= skip= no-squeezing',
    'paths',
    { complete: false },
  ),
  zcat: s('fqvl', 'force quiet verbose list', 'paths', { complete: false }),
  bzcat: s('sqv', 'small quiet verbose', 'paths', { complete: false }),
  xzcat: s('qvQT:', 'quiet verbose no-warn threads= format=', 'paths', { complete: false }),
  look: s('bdft:', 'alternative alphanum ignore-case terminate=', 'pattern-paths', { complete: false }),
  clear: s('Tx', '', 'none', { complete: false }),
  node: VERSION,
  python: VERSION,
  python3: VERSION,
  ruby: VERSION,
  perl: VERSION,
  tput: s('ST:Vx', '', 'data', { complete: false }),
};
