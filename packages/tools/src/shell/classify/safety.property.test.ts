// Random scripts from a grammar of readers, writers, builtins that evaluate words, abbreviated
// options, environment prefixes, redirections and substitutions, classified and — when judged a
// read — run for real under strace in a scratch workspace. A read that wrote or created a file,
// or opened a socket, fails the test; fast-check shrinks it, and the shrunk script goes into
// __fixtures__/regressions.ts as a table case. Seeded, so CI runs the same thousands of scripts.
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classifyCommand } from './classify.js';
import { hasStrace, resetScratch, runWatched, type Scratch } from './__fixtures__/watch.js';

const RUNS = Number(process.env.TOOLBELT_PROPERTY_RUNS ?? (process.env.CI ? 3000 : 400));
const SEED = Number(process.env.TOOLBELT_PROPERTY_SEED ?? 20261123);
const strace = hasStrace();
if (!strace && process.env.CI)
  throw new Error('strace is required for the shell safety property test in CI (.ci/run installs it)');
if (!strace) console.warn('skipping the shell safety property test: strace is not installed (apt-get install strace)');

let s: Scratch;
beforeAll(() => {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'tb-prop-')));
  s = { base, ws: join(base, 'ws'), home: join(base, 'home'), outside: join(base, 'out'), tmp: join(base, 'tmp') };
});
afterAll(() => rmSync(s.base, { recursive: true, force: true }));

// Placeholders: F a file to read, N a new file, D a directory; each filled from places inside,
// outside, at home, and secret.
const FILES = [
  'a.txt',
  'b.txt',
  'dir/a.txt',
  '.env',
  '.e*',
  '.[e]nv',
  '*.txt',
  'OUT/target.txt',
  '~/.bashrc',
  '/etc/hostname',
  '../out/target.txt',
];
const NEW = ['new.txt', 'dir/new.txt', 'OUT/new.txt', '~/new', '../out/n2'];
const DIRS = ['.', 'dir', 'OUT', '~', '..'];

const readers = [
  'cat F',
  'head -n 2 F',
  'tail -n 1 F',
  'ls D',
  'ls -la D',
  'grep a F',
  'grep -r a D',
  'grep -c a F',
  'sort F',
  'sort -u F',
  'wc -l F',
  'sed -n 1p F',
  "sed 's/a/b/' F",
  "awk '{print $1}' F",
  "find D -name '*.txt'",
  'echo W',
  "printf '%s' W",
  'diff F F',
  'od -c F',
  'uniq F',
  'cut -c1 F',
  'stat F',
  'du -s D',
  'cmp F F',
  'comm F F',
  'nl F',
  'base64 F',
  'tac F',
  'md5sum F',
  'file F',
  'strings F',
  'realpath F',
  'tr a b < F',
  'git status',
  'git log -1',
  'find D -exec cat {} +',
  'date +%s',
  'id',
  'pwd',
  'true',
];
const writers = [
  'touch N',
  'cp F N',
  'mv F N',
  'tee N < F',
  'sed -i s/a/b/ F',
  'sort -o N F',
  'mkdir N',
  'ln -s F N',
  'ln F N',
  'rm F',
  'truncate -s0 F',
  'uniq F N',
  'xxd F N',
  'tar -cf N F',
  'gzip F',
  "sed -n 'w N' F",
  'awk \'{print > "N"}\' F',
  'find D -fprint N',
  'date -f F',
  'history -w N',
  'dd if=F of=N',
  'install F N',
  'split F N',
];
const builtins = [
  'hash -p /usr/bin/touch ls; ls N',
  "declare 'a[$(touch N)]=1'",
  "printf -v 'a[$(touch N)]' %s x",
  "read 'a[$(touch N)]' <<< x",
  "mapfile -C 'touch N' -c 1 arr <<< x",
  "test -v 'a[$(touch N)]'",
  "let 'a[$(touch N)]'",
  "x='a[$(touch N)]'; echo $((x))",
  "unset 'a[$(touch N)]'",
  "compgen -W '$(touch N)' x",
  "[[ 1 -eq 'a[$(touch N)]' ]]",
  'export X=1',
  'set -e',
  "typeset 'x[$(touch N)]'",
  "[ -v 'a[$(touch N)]' ]",
  "x='a[$(touch N)]'; echo ${!x}",
  "x='$(touch N)'; echo ${x@P}",
  'BASH_CMDS[ls]=/usr/bin/touch; ls N',
  "readarray -C 'touch N' -c 1 arr <<< x",
  'cat <<EOF\n`touch N`\nEOF',
  'gawk \'BEGIN { f = "system"; @f("touch N") }\'',
  "declare -n r='a[$(touch N)]'; r=1",
];
const abbreviated = [
  'sed --in-pl s/a/b/ F',
  'sed --i s/a/b/ F',
  'sort --out=N F',
  'sort --outp=N F',
  'wc --files0=F',
  'du --files0-f=F',
  'tail --pid=1 F',
  'ls --hyp=always D',
  'date --fi=F',
  'tar --to-c=sh -xf F',
  'cat --num F',
  'grep --recursive a D',
  'sed --expr=p F',
];
const prefixes = [
  '',
  '',
  '',
  'LC_ALL=C ',
  'HOME=OUT ',
  'TMPDIR=OUT ',
  'GIT_TRACE=N ',
  'GIT_TRACE2=N ',
  'LANG=C ',
  'BASH_ENV=F ',
  'PATH=/usr/bin:/bin ',
];
const redirects = [
  '',
  '',
  '',
  ' > N',
  ' >> F',
  ' 2> N',
  ' < F',
  ' < /dev/tcp/127.0.0.1/9',
  ' > /dev/tcp/127.0.0.1/9',
  ' >> ~/.bashrc',
  ' 2>/dev/null',
];
const substitutions = ['$(touch N)', '`touch N`', '<(touch N)', '$(cat F)', '$(echo x)', 'x', '$X', '"$(touch N)"'];
const wrappers = [
  '',
  '',
  '',
  'timeout 5 ',
  'nice ',
  'env ',
  'command ',
  'xargs ',
  "bash -c '",
  'nohup ',
  'stdbuf -oL ',
];

const pick = <T>(xs: readonly T[]) => fc.constantFrom(...xs);
/** Mostly the plain choice, so that many scripts are reads that really run; sometimes a risky one. */
const mostly = <T>(plain: T, risky: readonly T[], weight = 3) =>
  fc.oneof({ arbitrary: fc.constant(plain), weight }, { arbitrary: pick(risky), weight: 1 });

const simple = fc
  .tuple(
    mostly('', prefixes),
    mostly('', wrappers, 4),
    fc.oneof(
      { arbitrary: pick(readers), weight: 6 },
      { arbitrary: pick(writers), weight: 1 },
      { arbitrary: pick(builtins), weight: 1 },
      { arbitrary: pick(abbreviated), weight: 1 },
    ),
    mostly('', redirects),
    fc.oneof({ arbitrary: pick(FILES.slice(0, 3)), weight: 3 }, { arbitrary: pick(FILES), weight: 1 }),
    pick(NEW),
    fc.oneof({ arbitrary: pick(DIRS.slice(0, 2)), weight: 3 }, { arbitrary: pick(DIRS), weight: 1 }),
    mostly('x', substitutions),
  )
  .map(([pre, wrap, cmd, redir, file, fresh, dir, sub]) => {
    let text = cmd.replaceAll('F', file).replaceAll('N', fresh).replaceAll('D', dir).replaceAll('W', sub);
    if (wrap === "bash -c '") text = `bash -c '${text.replaceAll("'", `'\\''`)}'`;
    else text = `${wrap}${text}`;
    return `${pre}${text}${redir}`;
  });

const script = fc
  .array(fc.tuple(simple, pick([' ; ', ' && ', ' | ', ' || '])), { minLength: 1, maxLength: 2 })
  .map((parts) => parts.map(([p, sep], i) => (i ? sep : '') + p).join(''));

describe.skipIf(!strace)('the shell safety property', () => {
  it('has a watcher that sees a created file, a write outside, a change inside and a socket', () => {
    resetScratch(s);
    expect(runWatched(s, 'touch fresh.txt').join()).toMatch(/fresh\.txt/);
    expect(runWatched(s, `echo x >> ${s.outside}/target.txt`).join()).toMatch(/target\.txt/);
    expect(runWatched(s, 'sed -i s/a/b/ a.txt').join()).toMatch(/a\.txt/);
    expect(runWatched(s, 'exec 3<>/dev/tcp/127.0.0.1/9 || true').join()).toMatch(/socket/);
    expect(runWatched(s, 'cat a.txt; ls -la; grep -r a dir')).toEqual([]);
  });

  it(`a script judged a read never writes, creates a file or opens a socket (${RUNS} scripts, seed ${SEED})`, async () => {
    let ran = 0;
    await fc.assert(
      fc.asyncProperty(script, async (raw) => {
        const text = raw.replaceAll('OUT', s.outside);
        resetScratch(s);
        const c = await classifyCommand(text, {
          cwd: s.ws,
          roots: [s.ws],
          home: s.home,
          env: { PATH: '/usr/bin:/bin', HOME: s.home, TMPDIR: s.tmp, LANG: 'C' },
        });
        if (c.effect !== 'read') return;
        ran++;
        const did = runWatched(s, text);
        expect(did, `${JSON.stringify(raw)} was judged a read (${c.reason}) but ${did.join('; ')}`).toEqual([]);
      }),
      { numRuns: RUNS, seed: SEED, endOnFailure: false },
    );
    // The grammar must keep producing reads that really run, or the property proves nothing.
    console.info(`shell safety property: ${ran} of ${RUNS} scripts were reads and ran under strace`);
    expect(ran).toBeGreaterThan(RUNS / 5);
  }, 600_000);
});
