// Secrets reached through what bash expands (the classifier's class 8 in safety.test.ts), as an
// unprivileged user: toolbelt running as nobody (65534, the built package) in safe mode, with an
// approver that approves every request, runs spellings of `cat .env` a classifier could misjudge;
// whatever was judged, the sandbox shows .env as empty, so its marker never comes back. Control:
// with the sandbox off, each spelling does print the marker, so these commands really read it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupScratch, marker, plant } from '../sandbox/__fixtures__/confined.js';
import {
  callsAsNobody,
  giveToNobody,
  nobodyDir,
  whyNotAsNobody,
  type CallResult,
} from '../sandbox/__fixtures__/nobody.js';

if (whyNotAsNobody) console.warn(`unprivileged shell tests skipped: ${whyNotAsNobody}`);

const SPELLINGS = [
  "for PS4 in '$(cat .env)'; do set -x; true; done",
  'echo ${x:-`cat .env`}',
  'echo "${x:-$(cat .env)}"',
  'sed ":a;e cat .env" f',
  "sed 's/x/y/;e cat .env' f",
  "cat $'.env\\0x'",
  "cat $'\\x2eenv'",
];
const SECRET = marker('class8');
let ws: string;
let home: string;

beforeAll(() => {
  if (whyNotAsNobody) return;
  ws = nobodyDir('tb-nobody-class8-');
  home = nobodyDir('tb-nobody-class8-home-');
  plant(ws, { '.env': `API_KEY=${SECRET}\n`, f: 'x\n' });
  giveToNobody(ws);
});
afterAll(cleanupScratch);

function runAll(sandbox?: 'off'): CallResult[] {
  const calls = SPELLINGS.map((command) => ({ tool: 'shell_exec', input: { command } }));
  return callsAsNobody(
    { root: ws, tools: ['shell'], mode: 'safe', ...(sandbox ? { sandbox } : {}), calls },
    { ...process.env, HOME: home },
  );
}

describe.skipIf(!!whyNotAsNobody)(
  'spellings of `cat .env` in safe mode with every request approved, as an unprivileged user (nobody, via setpriv)',
  () => {
    it('control: with the sandbox off, every spelling prints the marker', () => {
      const results = runAll('off');
      for (const [i, r] of results.entries()) expect(r.text, SPELLINGS[i]).toContain(SECRET);
    });

    it('in the sandbox, none does, and each ran once approved', () => {
      const results = runAll();
      for (const [i, r] of results.entries()) {
        expect(r.status, `${SPELLINGS[i]}: ${r.text}`).toBe('success');
        expect(r.text, SPELLINGS[i]).toMatch(/\[exit code \d+\]$/);
        expect(r.text, SPELLINGS[i]).not.toContain(SECRET);
      }
      // Safe mode asked about each (the classifier judges none a read); the approver said yes.
      expect(results.map((r) => r.approvals)).toEqual(SPELLINGS.map(() => 1));
    });
  },
);
