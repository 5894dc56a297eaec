import { chmodSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, harness, makeRepo, sh, write } from './__fixtures__/repos.js';

afterAll(cleanup);

describe("a repository's own config runs nothing through the git tools", () => {
  it('git_status, git_diff and git_commit run no clean filter, textconv, fsmonitor or hook the repository defines', async () => {
    const repo = makeRepo();
    const mark = (name: string) => `touch ${join(repo, name)}; cat`;
    sh(repo, 'config', 'filter.evil.clean', mark('CLEAN_RAN'));
    sh(repo, 'config', 'diff.evil.textconv', mark('TEXTCONV_RAN'));
    sh(repo, 'config', 'core.fsmonitor', mark('FSMONITOR_RAN'));
    write(repo, '.git/hooks/pre-commit', `#!/bin/sh\ntouch ${join(repo, 'HOOK_RAN')}\n`);
    // Executable, so git would run it if nothing stopped it.
    chmodSync(join(repo, '.git/hooks/pre-commit'), 0o755);
    write(repo, '.gitattributes', '* filter=evil diff=evil\n');
    write(repo, 'a.txt', 'a\n');
    const h = harness(repo, { mode: 'yolo' });
    expect((await h.call('git_status', {})).status).toBe('success');
    await h.call('git_diff', {});
    const commit = await h.call('git_commit', { message: 'add a', files: ['a.txt'] });
    expect(commit.status, JSON.stringify(commit.error)).toBe('success');
    for (const ran of ['CLEAN_RAN', 'TEXTCONV_RAN', 'FSMONITOR_RAN', 'HOOK_RAN']) expect(existsSync(join(repo, ran)), ran).toBe(false);
  });
});
