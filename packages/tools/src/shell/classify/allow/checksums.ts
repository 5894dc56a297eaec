// Checksums (GNU coreutils): they read the files they are given, or with -c/--check the files a
// sums file names — which are checked like any read only when named on the command line, so -c
// reads names nobody has seen. The sums file must be ours; the names in it are relative to the
// directory it runs in, and a checksum prints no content, only whether it matches.
import type { Card } from './card.js';
import { table } from './getopt.js';
import type { ReadSpec } from './spec.js';

const std = 'help version';
const sums = (short: string, long: string): ReadSpec => ({
  options: table(short, `${long} ${std}`, { complete: true }),
  operands: 'paths',
});

const SUMS = sums('bctwz', 'binary check tag text zero ignore-missing quiet status strict warn');

export const CHECKSUM_CARDS: Card[] = [
  {
    names: ['md5sum', 'sha1sum', 'sha224sum', 'sha256sum', 'sha384sum', 'sha512sum'],
    worst: 'read',
    spec: SUMS,
    examples: {
      read: [
        'md5sum a.txt',
        'sha256sum a.txt b.txt',
        'sha1sum --tag a.txt',
        'sha512sum -c sums.txt',
        'md5sum --che sums.txt',
        'sha256sum -',
      ],
      asks: ['md5sum .env', 'sha256sum OUT/secret.txt', 'md5sum $F', 'md5sum --algorithm=x a.txt'],
    },
  },
  {
    names: ['b2sum'],
    worst: 'read',
    spec: sums('bctwzl:', 'binary check tag text zero ignore-missing quiet status strict warn length='),
    examples: { read: ['b2sum a.txt', 'b2sum -l 256 a.txt'], asks: ['b2sum keys/server.pem'] },
  },
  {
    names: ['cksum'],
    worst: 'read',
    spec: sums(
      'a:lrtzw',
      'algorithm= base64 check length= raw tag untagged zero ignore-missing quiet status strict warn debug',
    ),
    examples: {
      read: ['cksum a.txt', 'cksum -a sha256 a.txt', 'cksum --algorithm=blake2b --base64 a.txt'],
      asks: ['cksum .env'],
    },
  },
  {
    names: ['sum'],
    worst: 'read',
    spec: sums('rs', 'sysv'),
    examples: { read: ['sum a.txt', 'sum -s a.txt'], asks: ['sum OUT/secret.txt'] },
  },
];
