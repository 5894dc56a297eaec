// The shell corpus (corpus.test.ts) as an unprivileged user: every command judged a read (judged
// as root, before the workspace changes hands) runs as nobody (65534, via setpriv) under strace in
// the built package's read-only sandbox, over a workspace, home and other users' homes that nobody
// owns. The same property as root: no write outside the private /tmp, no network socket, no
// program but its own, no secret printed. Controls: in the same run, a write is refused, a socket
// is seen, a foreign program is seen, and the sandbox shows .env empty while the file holds a marker.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leaksOf } from '../../sandbox/__fixtures__/secret-scripts.js';
import { cleanupScratch } from '../../sandbox/__fixtures__/confined.js';
import { giveToNobody, runnerAsNobody, whyNotAsNobody } from '../../sandbox/__fixtures__/nobody.js';
import { Sandbox } from '../../sandbox/sandbox.js';
import { sandboxSettings } from '../../sandbox/settings.js';
import { gitReadEnv } from '../env.js';
import { classifyCommand } from './classify.js';
import { hasStrace } from './__fixtures__/watch.js';
import { loadCorpus } from './__fixtures__/corpus/corpus.js';
import { judge, type Jailed } from './__fixtures__/corpus/jail.js';
import { makeCorpusWorkspace, type CorpusWorkspace } from './__fixtures__/corpus/workspace.js';

const skip = whyNotAsNobody ?? (hasStrace() ? undefined : 'strace is not installed');
if (skip) console.warn(`the shell corpus as an unprivileged user is skipped: ${skip}`);

const CONTROLS = ['touch fresh.txt', 'exec 3<>/dev/tcp/127.0.0.1/9 || true', 'ls; /usr/bin/id', 'cat .env'];

let space: CorpusWorkspace;
let reads: string[];

beforeAll(async () => {
  if (skip) return;
  space = makeCorpusWorkspace();
  const sandbox = new Sandbox(sandboxSettings(undefined, { env: { HOME: space.home } }), { homes: [space.homes] });
  const readsConfined = await sandbox.confinesReads([space.ws]);
  const env = { PATH: '/usr/bin:/bin', HOME: space.home, LANG: 'C' };
  reads = [];
  for (const cmd of loadCorpus()) {
    const c = await classifyCommand(cmd.command, {
      cwd: space.ws,
      roots: [space.ws],
      home: space.home,
      env,
      ...(readsConfined ? { readsConfined } : {}),
    });
    if (c.effect === 'read') reads.push(cmd.command);
  }
  for (const dir of [space.ws, space.home, space.homes, space.out]) giveToNobody(dir);
}, 120_000);
afterAll(cleanupScratch);

describe.skipIf(!!skip)('the shell corpus as an unprivileged user (nobody, via setpriv)', () => {
  it('every command judged a read only reads, as nobody too', () => {
    const env = gitReadEnv({ PATH: '/usr/bin:/bin', HOME: space.home, LANG: 'C', TMPDIR: '/tmp' });
    const commands = [...CONTROLS, ...reads];
    const spec = { ws: space.ws, home: space.home, homes: space.homes, env, commands, width: 4 };
    const report = runnerAsNobody<{ uid: number; results: Jailed[] }>(
      join(import.meta.dirname, '__fixtures__', 'corpus', 'nobody-jail.mjs'),
      spec,
      { cwd: space.ws, timeout: 900_000 },
    );
    expect(report.uid).toBe(65534);
    // The foreign-program control is judged as `ls`, whose own program id is not.
    const judgedAs = commands.map((c) => (c === 'ls; /usr/bin/id' ? 'ls' : c));
    const runs = report.results.map((r, i) => ({
      command: commands[i],
      verdict: judge(r, judgedAs[i], space.ws),
      leaks: leaksOf(space.markers, r.out),
    }));
    const [touch, socket, foreign, env_] = runs;
    expect(touch.verdict.refused.join()).toMatch(/fresh\.txt \(EROFS\)/);
    expect(socket.verdict.problems.join()).toMatch(/socket/);
    expect(foreign.verdict.problems.join()).toMatch(/ran \/usr\/bin\/id/);
    expect(env_.leaks).toEqual([]);
    expect(leaksOf(space.markers, readFileSync(join(space.ws, '.env'), 'utf8'))).toEqual(['ws/.env']);
    const bad = runs
      .slice(CONTROLS.length)
      .filter((r) => r.verdict.problems.length || r.leaks.length)
      .map((r) => `${r.command}: ${[...r.verdict.problems, ...r.leaks].join('; ')}`);
    const finished = runs.slice(CONTROLS.length).filter((r) => !r.verdict.incomplete).length;
    console.info(
      `shell corpus as nobody: ${reads.length} reads ran, ${finished} finished, ${bad.length} did more than read`,
    );
    expect(bad).toEqual([]);
    expect(reads.length).toBeGreaterThan(200);
  }, 900_000);
});
