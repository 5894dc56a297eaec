// The workspace is untrusted: a repository's own config names programs (filters, textconv and
// external diff drivers, fsmonitor, hooks) in every spelling git accepts, and the git tools run
// none of them on the host. Checked by effect (a marker the program would leave), with a control
// that leaves them, so that these tests can fail.
import { execFileSync } from 'node:child_process';
import { mkdirSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Sandbox } from '../sandbox/sandbox.js';
import { sandboxSettings } from '../sandbox/settings.js';
import { probeSandbox } from '../sandbox/probe.js';
import { cleanup, harness, tempDir } from './__fixtures__/repos.js';
import { changedFiles, plantRepos, workflow, type Planted } from './__fixtures__/planted.js';
import { callsAsNobody, giveToNobody, whyNotAsNobody, type CallSpec } from '../sandbox/__fixtures__/nobody.js';
import type { GitToolsOptions } from './index.js';

afterAll(cleanup);

const off = () => new Sandbox(sandboxSettings(undefined, { overrides: { mode: 'off' } }));
const sandboxWorks = (await probeSandbox('bwrap')).ok;

/** Runs the workflow in each planted repository with these git tools; the results' statuses. */
async function exercise(
  p: Planted,
  tools: GitToolsOptions,
): Promise<{ tool: string; status: string; error?: string }[]> {
  const files = changedFiles(p);
  const out: { tool: string; status: string; error?: string }[] = [];
  for (const [i, repo] of p.repos.entries()) {
    const h = harness(repo, { tools });
    for (const c of workflow(repo, files[i])) {
      const r = await h.call(c.tool, c.input);
      out.push({ tool: `${c.tool} in ${repo}`, status: r.status, ...(r.error ? { error: r.error.message } : {}) });
    }
    await h.executor.close();
  }
  return out;
}

const failed = (rs: { status: string }[]) => rs.filter((r) => r.status !== 'success');

describe("a repository's own config runs nothing on the host through the git tools", () => {
  it('control: with the sandbox off and no overrides, every planted program runs (so the checks below can fail)', async () => {
    const p = plantRepos(tempDir());
    try {
      await exercise(p, { sandbox: off(), guardConfig: false });
      expect(p.ran().sort()).toEqual([...p.names].sort());
    } finally {
      p.cleanup();
    }
  });

  it.skipIf(!sandboxWorks)(
    'as toolbelt runs them (sandbox and overrides): none runs, and every call succeeds',
    async () => {
      const p = plantRepos(tempDir());
      try {
        const results = await exercise(p, {});
        expect(p.ran()).toEqual([]);
        expect(failed(results)).toEqual([]);
      } finally {
        p.cleanup();
      }
    },
  );

  it('the overrides alone (sandbox off): none runs, and every call succeeds', async () => {
    const p = plantRepos(tempDir());
    try {
      const results = await exercise(p, { sandbox: off() });
      expect(p.ran()).toEqual([]);
      expect(failed(results)).toEqual([]);
    } finally {
      p.cleanup();
    }
  });

  it.skipIf(!sandboxWorks)(
    'the sandbox alone (no overrides): what runs inside leaves nothing on the host',
    async () => {
      const p = plantRepos(tempDir());
      try {
        await exercise(p, { guardConfig: false });
        expect(p.ran()).toEqual([]);
      } finally {
        p.cleanup();
      }
    },
  );
});

/** Gives each repository to nobody (65534) and runs the workflow's calls as nobody, from the built package. */
function runAsNobody(
  p: Planted,
  spec: Pick<CallSpec, 'sandbox' | 'git'>,
): { tool: string; status: string; text: string }[] {
  const files = changedFiles(p);
  const home = tempDir('toolbelt-nobody-home-');
  giveToNobody(home);
  return p.repos.flatMap((repo, i) => {
    giveToNobody(repo);
    return callsAsNobody(
      { root: repo, tools: ['git'], ...spec, calls: workflow(repo, files[i]) },
      { ...process.env, HOME: home },
    ).map((r) => ({
      tool: `${r.tool} in ${repo}`,
      status: r.status,
      text: r.text,
    }));
  });
}

describe.skipIf(!!whyNotAsNobody)(
  `as an unprivileged user${whyNotAsNobody ? ` (skipped: ${whyNotAsNobody})` : ''}`,
  () => {
    it('control: with the sandbox off and no overrides, the planted programs run as that user', () => {
      const p = plantRepos(parentFor65534());
      try {
        runAsNobody(p, { sandbox: 'off', git: { guardConfig: false } });
        expect(p.ran().sort()).toEqual([...p.names].sort());
      } finally {
        p.cleanup();
      }
    });

    it('as toolbelt runs them: none runs, and every call succeeds', () => {
      const p = plantRepos(parentFor65534());
      try {
        const results = runAsNobody(p, {});
        expect(p.ran()).toEqual([]);
        expect(failed(results)).toEqual([]);
      } finally {
        p.cleanup();
      }
    });
  },
);

/** A parent the unprivileged user can enter (temp dirs are 0700). */
function parentFor65534(): string {
  const dir = tempDir('toolbelt-nobody-');
  execFileSync('chmod', ['755', dir]);
  const sub = join(dir, 'w');
  mkdirSync(sub);
  return realpathSync(sub);
}
