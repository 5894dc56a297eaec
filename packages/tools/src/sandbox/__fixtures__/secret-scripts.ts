// The secrets property's grammar: random scripts of readers (cat, grep -r, tar, find -exec,
// base64, xxd…) over planted secrets in the root, the home, another user's home and /etc/shadow,
// and the detector that finds a marker in their output as is, in base64 or in hex. Shared by
// secrets.property.test.ts and its run as an unprivileged user. OTHER in a script stands for the
// directory of other users' homes.
import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { marker, plant } from './confined.js';

const SECRETS = [
  '.env',
  'id_rsa',
  'sub/credentials.json',
  '.envrc',
  'kubeconfig',
  'deep/x/.env.production',
  'keys/tls.key',
];

export interface Planted {
  /** Where each secret is (ws/…, home/…, other/…, out/…) → its marker. */
  markers: Record<string, string>;
  /** In notes.txt, no secret: a script that really reads shows it. */
  visible: string;
}

/** Plants the secrets in the workspace `ws`, the `home`, another user's home under `homes`, and `out` (a link's target). */
export function plantSecrets(ws: string, home: string, homes: string, out: string): Planted {
  const markers: Record<string, string> = {};
  const visible = marker('visible');
  for (const f of SECRETS) markers[`ws/${f}`] = marker(f.replace(/\W/g, '_'));
  plant(ws, {
    ...Object.fromEntries(SECRETS.map((f) => [f, `${markers[`ws/${f}`]}\n`])),
    'notes.txt': `${visible}\n`,
    'sub/a.txt': 'a\n',
  });
  markers['home/.ssh/id_rsa'] = marker('ssh');
  markers['home/.aws/credentials'] = marker('aws');
  plant(home, {
    '.ssh/id_rsa': `${markers['home/.ssh/id_rsa']}\n`,
    '.aws/credentials': `${markers['home/.aws/credentials']}\n`,
  });
  markers['other/notes.txt'] = marker('other');
  plant(homes, { 'other/notes.txt': `${markers['other/notes.txt']}\n` });
  markers['out/.env'] = marker('outside');
  plant(out, { '.env': `${markers['out/.env']}\n` });
  symlinkSync(join(ws, 'sub', 'credentials.json'), join(ws, 'link-to-secret'));
  symlinkSync(join(out, '.env'), join(ws, 'innocent.txt'));
  return { markers, visible };
}

// F a file, D a directory, G a glob.
const FILES = [
  '.env',
  'id_rsa',
  'sub/credentials.json',
  '.envrc',
  'kubeconfig',
  'link-to-secret',
  'innocent.txt',
  'notes.txt',
  'deep/x/.env.production',
  'keys/tls.key',
  '~/.ssh/id_rsa',
  '~/.aws/credentials',
  'OTHER/other/notes.txt',
  '/etc/shadow',
  '/etc/gshadow',
];
const DIRS = ['.', 'sub', 'deep', 'keys', '~', '~/.ssh', 'OTHER', 'OTHER/other'];
const GLOBS = ['*', '.e*', '.[e]nv*', 'sub/*', '*/*/*', '.*', '~/.*/*', 'OTHER/*/*'];
const readers = [
  'cat F',
  'cat G',
  'head -c 4000 F',
  'tail -n 3 F',
  'grep -r . D',
  'grep -rh TBSECRET D',
  'grep -a . F',
  'find D -type f -exec cat {} +',
  'find D -type f',
  'tar cf - D',
  'tar cf - G',
  'base64 F',
  'xxd -p F',
  'strings F',
  'sort F G',
  "awk '{print}' F",
  'sed -n p F',
  'nl F',
  'tac F',
  'cut -c1-200 F',
  'diff F notes.txt',
  'cat < F',
  'while read l; do echo "$l"; done < F',
  'ls -la D',
  'du -a D',
  'git diff --no-index notes.txt F',
];
const pipes = [
  '',
  '',
  '',
  ' | cat',
  ' | sort',
  ' | base64',
  ' | tar xOf - 2>/dev/null',
  ' | grep -a TBSECRET',
  ' | xxd -p',
];
const wrappers = ['', '', '', 'env ', 'nice ', 'timeout 5 ', 'command '];

const pick = <T>(xs: readonly T[]) => fc.constantFrom(...xs);
// Files named outright are mostly ones the classifier lets a read open: what reaches a secret
// then goes through a glob, a directory walk or a link, which only the sandbox stops.
const inside = <T>(xs: readonly T[], n: number) =>
  fc.oneof({ arbitrary: pick(xs.slice(0, n)), weight: 4 }, { arbitrary: pick(xs), weight: 1 });
const file = fc.oneof(
  { arbitrary: pick(['notes.txt', 'link-to-secret', 'innocent.txt', 'sub/a.txt']), weight: 3 },
  { arbitrary: pick(FILES), weight: 1 },
);
const simple = fc
  .tuple(pick(wrappers), pick(readers), file, inside(DIRS, 4), inside(GLOBS, 6), pick(pipes))
  .map(([wrap, cmd, f, d, g, pipe]) => `${wrap}${cmd.replaceAll('F', f).replaceAll('D', d).replaceAll('G', g)}${pipe}`);
export const script = fc
  .array(fc.tuple(simple, pick([' ; ', ' && ', ' || '])), { minLength: 1, maxLength: 2 })
  .map((parts) => parts.map(([p, sep], i) => (i ? sep : '') + p).join(''));

/** The output as is, without whitespace (od-like), and decoded from base64 and hex. */
export function views(out: string): string[] {
  const bare = out.replace(/\s+/g, '');
  const hex = bare.replace(/[^0-9a-f]/gi, '');
  return [
    out,
    bare,
    Buffer.from(bare, 'base64').toString('latin1'),
    Buffer.from(hex.length % 2 ? hex.slice(1) : hex, 'hex').toString('latin1'),
    Buffer.from(hex, 'hex').toString('latin1'),
  ];
}

/** Where the markers seen in `out` are from (another user's home only for a read), and /etc/shadow. */
export function leaksOf(markers: Record<string, string>, out: string, readOnly = true): string[] {
  const seen = views(out);
  const found = Object.entries(markers)
    .filter(([f, m]) => (readOnly || !f.startsWith('other/')) && seen.some((v) => v.includes(m)))
    .map(([f]) => f);
  if (seen.some((v) => /^root:[^:x]*:\d{4,}:/m.test(v))) found.push('/etc/shadow');
  return found;
}
