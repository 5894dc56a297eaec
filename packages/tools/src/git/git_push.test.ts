import { afterAll, describe, expect, it } from 'vitest';
import { textOf } from '@toolbelt/core';
import { addBareRemote, cleanup, harness, makeRepo, sh, tempDir, write } from './__fixtures__/repos.js';

afterAll(cleanup);

function commit(repo: string, file: string, msg: string): void {
  write(repo, file, msg + '\n');
  sh(repo, 'add', file);
  sh(repo, 'commit', '-q', '-m', msg);
}

const head = (dir: string, ref = 'main') => sh(dir, 'rev-parse', ref).trim();

describe('git_push', () => {
  it('pushes the current branch to a local bare remote', async () => {
    const repo = makeRepo();
    const bare = addBareRemote(repo);
    commit(repo, 'a.txt', 'add a');
    const r = await harness(repo).call('git_push', {});
    expect(r.status).toBe('success');
    expect(textOf(r)).toMatch(/^Pushed main to origin \([0-9a-f]+\.\.[0-9a-f]+\)\.$/);
    expect(head(bare)).toBe(head(repo));
    expect(textOf(await harness(repo).call('git_push', {}))).toBe(
      'Everything up to date: origin/main already has your commits.',
    );
  });

  it('pushes a new branch and sets its upstream', async () => {
    const repo = makeRepo();
    const bare = addBareRemote(repo);
    sh(repo, 'switch', '-q', '-c', 'feature');
    commit(repo, 'f.txt', 'feature work');
    const r = await harness(repo).call('git_push', { branch: 'feature', setUpstream: true });
    expect(textOf(r)).toBe('Pushed feature to origin (new branch).');
    expect(head(bare, 'feature')).toBe(head(repo, 'feature'));
    expect(sh(repo, 'rev-parse', '--abbrev-ref', 'feature@{upstream}').trim()).toBe('origin/feature');
  });

  it('is destructive, asks even in auto-edit mode, and previews the commits to push', async () => {
    const repo = makeRepo();
    const bare = addBareRemote(repo);
    commit(repo, 'a.txt', 'first change');
    commit(repo, 'b.txt', 'second change');
    const h = harness(repo, { mode: 'auto-edit', answer: 'reject' });
    const r = await h.call('git_push', {});
    expect(r.status).toBe('rejected');
    const req = h.requests[0];
    expect(req.effect).toBe('destructive');
    expect(req.warnings).toEqual([]);
    const preview = req.preview?.kind === 'text' ? req.preview.text : '';
    expect(preview).toContain(`git push origin main    (remote origin: ${bare})`);
    expect(preview).toMatch(/Commits to push \(2\):\n {2}[0-9a-f]+ second change\n {2}[0-9a-f]+ first change/);
    expect(head(bare)).not.toBe(head(repo));
  });

  it('is rejected when the remote has moved on, and force: true overwrites it after a hard warning', async () => {
    const repo = makeRepo();
    const bare = addBareRemote(repo);
    const other = tempDir();
    sh(other, 'clone', '-q', bare, '.');
    sh(other, 'config', 'user.email', 'o@example.com');
    sh(other, 'config', 'user.name', 'Other');
    commit(other, 'theirs.txt', 'their change');
    sh(other, 'push', '-q', 'origin', 'main');
    commit(repo, 'mine.txt', 'my change');

    const plain = await harness(repo).call('git_push', {});
    expect(plain.error?.code).toBe('CONFLICT');
    expect(plain.error?.message).toContain('ask the user whether to force-push');

    sh(repo, 'fetch', '-q', 'origin');
    const h = harness(repo, { mode: 'safe' });
    const forced = await h.call('git_push', { force: true });
    expect(forced.status).toBe('success');
    expect(textOf(forced)).toContain('forced update');
    const req = h.requests[0];
    expect(req.reason).toContain('FORCE-pushes main to origin');
    expect(req.warnings.join('\n')).toContain('will be overwritten');
    expect(req.preview?.kind === 'text' && req.preview.text).toMatch(
      /that will be LOST \(1\):\n {2}[0-9a-f]+ their change/,
    );
    expect(head(bare)).toBe(head(repo));
  });

  it('asks for a force push even in yolo mode, while a plain push runs unasked', async () => {
    const repo = makeRepo();
    addBareRemote(repo);
    commit(repo, 'a.txt', 'first');
    const plain = harness(repo, { mode: 'yolo', answer: 'reject' });
    expect((await plain.call('git_push', {})).status).toBe('success');
    expect(plain.requests).toHaveLength(0);
    const forced = harness(repo, { mode: 'yolo', answer: 'reject' });
    const r = await forced.call('git_push', { force: true });
    expect(r.status).toBe('rejected');
    expect(forced.requests[0].reason).toContain('always confirmed');
  });

  it('force-with-lease refuses when the remote moved since the last fetch', async () => {
    const repo = makeRepo();
    const bare = addBareRemote(repo);
    const other = tempDir();
    sh(other, 'clone', '-q', bare, '.');
    sh(other, 'config', 'user.email', 'o@example.com');
    sh(other, 'config', 'user.name', 'Other');
    commit(other, 'theirs.txt', 'their change');
    sh(other, 'push', '-q', 'origin', 'main');
    commit(repo, 'mine.txt', 'my change');
    const r = await harness(repo).call('git_push', { force: true });
    expect(r.status).toBe('error');
    expect(head(bare)).toBe(head(other));
  });

  it('refuses unknown remotes, URLs and option-like names before asking', async () => {
    const repo = makeRepo();
    addBareRemote(repo);
    const h = harness(repo, { mode: 'safe' });
    const unknown = await h.call('git_push', { remote: 'upstream' });
    expect(unknown.error?.code).toBe('NOT_FOUND');
    expect(unknown.error?.message).toContain('configured remotes: origin');
    const url = await h.call('git_push', { remote: tempDir() });
    expect(url.error?.code).toBe('NOT_FOUND');
    const inj = await h.call('git_push', { remote: '--receive-pack=touch /tmp/pwned' });
    expect(inj.error?.code).toBe('INVALID_PARAMS');
    const branch = await h.call('git_push', { branch: '--all' });
    expect(branch.error?.code).toBe('INVALID_PARAMS');
    expect(h.requests).toHaveLength(0);
  });
});
