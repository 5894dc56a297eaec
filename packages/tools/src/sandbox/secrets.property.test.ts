// Random scripts from a grammar of readers (cat, grep -r, tar, find -exec, base64, xxd…) over
// planted secrets — in the root (.env, id_rsa, credentials, .envrc, kubeconfig, links to them and
// to one outside), in the home (~/.ssh, ~/.aws), in another user's home, and /etc/shadow — are
// classified and run for real in the read-only sandbox, as a read would run (also those the
// classifier did not judge reads: it asks for most that reach a secret, and the sandbox must hold
// where it is wrong); those not judged reads run again in the workspace-write sandbox, as after the
// user's approval. No secret's marker may appear in any output, as is or encoded (but another
// user's home, hidden from reads only). Seeded; a failure shrinks to the case to fix.
import { readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bashInvocation } from '../process/limits.js';
import { classifyCommand } from '../shell/classify/classify.js';
import { bwrapInvocation } from './bwrap.js';
import { Sandbox } from './sandbox.js';
import { sandboxSettings } from './settings.js';
import { sandboxWorks } from './__fixtures__/available.js';
import { cleanupScratch, marker, plant, runConfined, runInvocation, scratchDir } from './__fixtures__/confined.js';

const RUNS = Number(process.env.TOOLBELT_PROPERTY_RUNS ?? (process.env.CI ? 300 : 150));
const SEED = Number(process.env.TOOLBELT_PROPERTY_SEED ?? 20261126);

const SECRETS = ['.env', 'id_rsa', 'sub/credentials.json', '.envrc', 'kubeconfig', 'deep/x/.env.production', 'keys/tls.key'];
const markers: Record<string, string> = {};
const VISIBLE = marker('visible');
let ws: string;
let home: string;
let homes: string;
let sandbox: Sandbox;

beforeAll(() => {
  ws = scratchDir('tb-prop-sbx-ws-');
  home = scratchDir('tb-prop-sbx-home-');
  homes = scratchDir('tb-prop-sbx-homes-');
  const out = scratchDir('tb-prop-sbx-out-');
  for (const f of SECRETS) markers[`ws/${f}`] = marker(f.replace(/\W/g, '_'));
  plant(ws, { ...Object.fromEntries(SECRETS.map((f) => [f, `${markers[`ws/${f}`]}\n`])), 'notes.txt': `${VISIBLE}\n`, 'sub/a.txt': 'a\n' });
  markers['home/.ssh/id_rsa'] = marker('ssh');
  markers['home/.aws/credentials'] = marker('aws');
  plant(home, { '.ssh/id_rsa': `${markers['home/.ssh/id_rsa']}\n`, '.aws/credentials': `${markers['home/.aws/credentials']}\n` });
  markers['other/notes.txt'] = marker('other');
  plant(homes, { 'other/notes.txt': `${markers['other/notes.txt']}\n` });
  markers['out/.env'] = marker('outside');
  plant(out, { '.env': `${markers['out/.env']}\n` });
  symlinkSync(join(ws, 'sub', 'credentials.json'), join(ws, 'link-to-secret'));
  symlinkSync(join(out, '.env'), join(ws, 'innocent.txt'));
  sandbox = new Sandbox(sandboxSettings(undefined, { env: { HOME: home } }), { homes: [homes] });
});
afterAll(cleanupScratch);

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
const pipes = ['', '', '', ' | cat', ' | sort', ' | base64', ' | tar xOf - 2>/dev/null', ' | grep -a TBSECRET', ' | xxd -p'];
const wrappers = ['', '', '', 'env ', 'nice ', 'timeout 5 ', 'command '];

const pick = <T>(xs: readonly T[]) => fc.constantFrom(...xs);
// Files named outright are mostly ones the classifier lets a read open: what reaches a secret
// then goes through a glob, a directory walk or a link, which only the sandbox stops.
const inside = <T>(xs: readonly T[], n: number) => fc.oneof({ arbitrary: pick(xs.slice(0, n)), weight: 4 }, { arbitrary: pick(xs), weight: 1 });
const file = fc.oneof({ arbitrary: pick(['notes.txt', 'link-to-secret', 'innocent.txt', 'sub/a.txt']), weight: 3 }, { arbitrary: pick(FILES), weight: 1 });
const simple = fc
  .tuple(pick(wrappers), pick(readers), file, inside(DIRS, 4), inside(GLOBS, 6), pick(pipes))
  .map(([wrap, cmd, f, d, g, pipe]) => `${wrap}${cmd.replaceAll('F', f).replaceAll('D', d).replaceAll('G', g)}${pipe}`);
const script = fc
  .array(fc.tuple(simple, pick([' ; ', ' && ', ' || '])), { minLength: 1, maxLength: 2 })
  .map((parts) => parts.map(([p, sep], i) => (i ? sep : '') + p).join(''));

/** The output as is, without whitespace (od-like), and decoded from base64 and hex. */
function views(out: string): string[] {
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

function leaks(out: string, readOnly = true): string[] {
  const seen = views(out);
  const found = Object.entries(markers)
    .filter(([f, m]) => (readOnly || !f.startsWith('other/')) && seen.some((v) => v.includes(m)))
    .map(([f]) => f);
  if (seen.some((v) => /^root:[^:x]*:\d{4,}:/m.test(v))) found.push('/etc/shadow');
  return found;
}

describe.skipIf(!sandboxWorks)('the sandbox secrets property', () => {
  it('has a detector that sees a marker as is, in base64 and in hex, and the shadow file', () => {
    const m = markers['ws/.env'];
    expect(leaks(`x ${m} y`)).toEqual(['ws/.env']);
    expect(
      leaks(
        Buffer.from(`${m}\n`)
          .toString('base64')
          .replace(/(.{10})/g, '$1\n'),
      ),
    ).toEqual(['ws/.env']);
    expect(leaks(Buffer.from(`ab${m}\n`).toString('hex'))).toEqual(['ws/.env']);
    expect(leaks(readFileSync('/etc/passwd', 'utf8'))).toEqual([]);
  });

  it("control: without the hidden paths, the grammar's readers show every marker and the shadow file", async () => {
    const c = await sandbox.confine({ roots: [ws], cwd: ws, readOnly: true, network: false });
    const all = `export HOME=${home}; grep -r . . ~ ${homes}; cat innocent.txt /etc/shadow`;
    const r = await runInvocation(bwrapInvocation(c.bwrap!.path, { ...c.bwrap!.profile, hidden: [] }, bashInvocation(all)));
    expect(leaks(r.out).sort()).toEqual([...Object.keys(markers), ...(process.getuid?.() === 0 ? ['/etc/shadow'] : [])].sort());
  });

  it(`no script shows a planted secret, judged a read or not (${RUNS} scripts, seed ${SEED})`, async () => {
    let reads = 0;
    let sawVisible = 0;
    const check = async (text: string, readOnly: boolean, why: string) => {
      const confined = await sandbox.confine({ roots: [ws], cwd: ws, readOnly, network: false });
      const r = await runConfined(confined, `export HOME=${home}; ${text}`);
      if (views(r.out).some((v) => v.includes(VISIBLE))) sawVisible++;
      const profile = readOnly ? 'read-only' : 'workspace-write';
      expect(leaks(r.out, readOnly), `${JSON.stringify(text)} (${why}) showed a secret in the ${profile} sandbox:\n${r.out.slice(0, 2000)}`).toEqual([]);
    };
    await fc.assert(
      fc.asyncProperty(script, async (raw) => {
        const text = raw.replaceAll('OTHER', homes);
        const c = await classifyCommand(text, { cwd: ws, roots: [ws], home, env: { PATH: '/usr/bin:/bin', HOME: home, LANG: 'C' } });
        if (c.effect === 'read') reads++;
        await check(text, true, `${c.effect}: ${c.reason}`);
        if (c.effect !== 'read') await check(text, false, `${c.effect}: ${c.reason}`);
      }),
      { numRuns: RUNS, seed: SEED, endOnFailure: true },
    );
    console.info(
      `sandbox secrets property: ${RUNS} scripts, ${reads} judged reads; every one ran read-only, the ${RUNS - reads} others also with the workspace writable; ${sawVisible} runs showed the visible file`,
    );
    // The grammar must keep producing reads, and commands that really read, or the property proves little.
    expect(reads).toBeGreaterThan(RUNS / 10);
    expect(sawVisible).toBeGreaterThan(RUNS / 10);
  }, 600_000);
});
