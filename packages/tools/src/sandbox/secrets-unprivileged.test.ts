// secrets.test.ts and secrets.property.test.ts as an unprivileged user: the built package's sandbox,
// run as nobody (65534) over a workspace, home and another user's home that nobody owns, shows no
// planted secret (.env, id_rsa, sub/credentials.json, .envrc, kubeconfig, a link to one, a link to
// one outside) to cat, grep -r or tar, in either profile; nor does a seeded sample of the
// property's random scripts. Control: the same commands without the hidden paths show every marker.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classifyCommand } from '../shell/classify/classify.js';
import { cleanupScratch } from './__fixtures__/confined.js';
import { giveToNobody, nobodyDir, scriptsAsNobody, whyNotAsNobody, type ConfinedRun } from './__fixtures__/nobody.js';
import { leaksOf, plantSecrets, script, views } from './__fixtures__/secret-scripts.js';

if (whyNotAsNobody) console.warn(`unprivileged secrets tests skipped: ${whyNotAsNobody}`);

const SAMPLE = Number(process.env.TOOLBELT_PROPERTY_NOBODY_RUNS ?? 40);
const SEED = Number(process.env.TOOLBELT_PROPERTY_SEED ?? 20261126);

let markers: Record<string, string>;
let visible: string;
let ws: string;
let home: string;
let homes: string;

beforeAll(() => {
  if (whyNotAsNobody) return;
  [ws, home, homes] = ['tb-nobody-sec-ws-', 'tb-nobody-sec-home-', 'tb-nobody-sec-homes-'].map(nobodyDir);
  const out = nobodyDir('tb-nobody-sec-out-');
  ({ markers, visible } = plantSecrets(ws, home, homes, out));
  for (const dir of [ws, home, homes, out]) giveToNobody(dir);
});
afterAll(cleanupScratch);

const run = (runs: ConfinedRun[]) => scriptsAsNobody({ roots: [ws], home, homes: [homes], runs }).results;
const readers =
  'cat .env id_rsa sub/credentials.json .envrc kubeconfig link-to-secret innocent.txt; grep -r . .; tar c . | cat';
/** The markers of the workspace and of the link's target outside: what `readers` reaches. */
const reached = () => Object.keys(markers).filter((f) => f.startsWith('ws/') || f.startsWith('out/'));

describe.skipIf(!!whyNotAsNobody)('secrets in the roots, as an unprivileged user (nobody, via setpriv)', () => {
  it('read as empty in both profiles: cat, grep -r, tar c | cat', () => {
    const results = run([true, false].map((readOnly) => ({ readOnly, network: false, script: `id -u; ${readers}` })));
    for (const r of results) {
      expect(r.stdout, r.profile).toMatch(/^65534\n/);
      expect(leaksOf(markers, r.out), r.profile).toEqual([]);
      expect(r.out, r.profile).toContain(visible);
    }
  });

  it('control: the same commands without the hidden paths show every marker', () => {
    const [r] = run([{ readOnly: true, network: false, script: readers, unhidden: true }]);
    expect(leaksOf(markers, r.out).sort()).toEqual(reached().sort());
  });
});

describe.skipIf(!!whyNotAsNobody)(
  `the secrets property as an unprivileged user (${SAMPLE} scripts, seed ${SEED})`,
  () => {
    it("control: without the hidden paths, the grammar's readers show every marker but /etc/shadow, which nobody cannot read", () => {
      const all = `export HOME=${home}; grep -r . . ~ ${homes}; cat innocent.txt /etc/shadow`;
      const [r] = run([{ readOnly: true, network: false, script: all, unhidden: true }]);
      expect(leaksOf(markers, r.out).sort()).toEqual(Object.keys(markers).sort());
    });

    it('no script shows a planted secret, judged a read or not', async () => {
      const texts = fc.sample(script, { seed: SEED, numRuns: SAMPLE }).map((raw) => raw.replaceAll('OTHER', homes));
      const runs: (ConfinedRun & { text: string; why: string })[] = [];
      for (const text of texts) {
        const c = await classifyCommand(text, {
          cwd: ws,
          roots: [ws],
          home,
          env: { PATH: '/usr/bin:/bin', HOME: home, LANG: 'C' },
        });
        const why = `${c.effect}: ${c.reason}`;
        for (const readOnly of c.effect === 'read' ? [true] : [true, false])
          runs.push({ readOnly, network: false, script: `export HOME=${home}; ${text}`, text, why });
      }
      const results = run(runs);
      let sawVisible = 0;
      for (const [i, r] of results.entries()) {
        if (views(r.out).some((v) => v.includes(visible))) sawVisible++;
        const what = `${JSON.stringify(runs[i].text)} (${runs[i].why}) in the ${r.profile} sandbox:\n${r.out.slice(0, 2000)}`;
        expect(leaksOf(markers, r.out, runs[i].readOnly), what).toEqual([]);
      }
      console.info(
        `secrets property as nobody: ${SAMPLE} scripts, ${runs.length} runs, ${sawVisible} showed the visible file`,
      );
      // The scripts must really read, or the sample proves little.
      expect(sawVisible).toBeGreaterThan(SAMPLE / 10);
    }, 300_000);
  },
);
