import { mkdirSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { ToolError } from '@toolbelt/core';
import { afterAll, describe, expect, it } from 'vitest';
import { makeTrapTree } from './__fixtures__/tree.js';
import { WorkspaceGuard, type Access } from './guard.js';

const t = makeTrapTree();
afterAll(() => rmSync(t.base, { recursive: true, force: true }));
const guard = new WorkspaceGuard({ roots: [t.root] });
const R = (rel: string) => (rel === '.' ? t.root : join(t.root, rel));

type Expect = { ok: string } | { code: 'PERMISSION_DENIED' | 'INVALID_PARAMS'; says?: string };
const ok = (rel: string): Expect => ({ ok: R(rel) });
const denied = (says?: string): Expect => ({ code: 'PERMISSION_DENIED', ...(says ? { says } : {}) });
const invalid = (says?: string): Expect => ({ code: 'INVALID_PARAMS', ...(says ? { says } : {}) });

// [what the case is about, path (ABS/ and BASE/ are replaced), access, expected]
const CASES: [string, string, Access, Expect][] = [
  ['a plain relative file', 'a.txt', 'read', ok('a.txt')],
  ['a ./ prefix', './a.txt', 'read', ok('a.txt')],
  ['an absolute path inside the root', 'ABS/a.txt', 'read', ok('a.txt')],
  ['.. that stays inside', 'dir/../a.txt', 'read', ok('a.txt')],
  ['.. traversal out of the root', '../outside/secret.txt', 'read', denied('outside the workspace')],
  ['deep traversal out of the root', 'dir/sub/../../../outside/secret.txt', 'read', denied()],
  ['an absolute path outside', 'BASE/outside/secret.txt', 'read', denied()],
  ['/etc/passwd', '/etc/passwd', 'read', denied()],
  ['prefix trap: sibling root2', 'BASE/root2/x.txt', 'read', denied()],
  ['prefix trap through ..', '../root2/x.txt', 'read', denied()],
  ['prefix trap from an absolute root path', 'ABS/../root2/x.txt', 'write', denied()],
  ['a symlinked file pointing inside', 'link-in', 'read', ok('dir/b.txt')],
  ['a symlinked file pointing outside', 'link-out', 'read', denied('resolves to')],
  ['an absolute symlink pointing outside', 'abs-out', 'read', denied()],
  ['a file under a symlinked directory pointing outside', 'dirlink-out/secret.txt', 'read', denied()],
  ['a new file under a symlinked parent pointing outside', 'dirlink-out/new.txt', 'write', denied()],
  ['a new nested file under a symlinked parent pointing outside', 'dirlink-out/x/y/z.txt', 'write', denied()],
  ['listing a symlinked directory pointing outside', 'dirlink-out', 'list', denied()],
  ['a symlinked directory pointing inside', 'dirlink-in/b.txt', 'read', ok('dir/b.txt')],
  [
    'a new file under a symlinked directory pointing inside',
    'dirlink-in/new/deeper.txt',
    'write',
    ok('dir/new/deeper.txt'),
  ],
  ['a dangling link that would be created inside', 'dangling-in', 'write', ok('dir/new.txt')],
  ['a dangling link that would be created outside', 'dangling-out', 'write', denied()],
  ['a chain of links that stays inside', 'chain', 'read', ok('dir/b.txt')],
  ['a chain of links that leaves', 'chain-out', 'read', denied()],
  ['a link to the parent directory', 'relparent-link/outside/secret.txt', 'read', denied()],
  ['deleting a link that points outside removes the link itself', 'link-out', 'delete', ok('link-out')],
  ['deleting through a symlinked parent that points outside', 'dirlink-out/secret.txt', 'delete', denied()],
  ['a symlink loop', 'loop1', 'read', invalid('loops')],
  ['a NUL byte', 'a.txt\0.png', 'read', invalid('NUL')],
  ['a NUL byte in a traversal', '../outside\0/secret.txt', 'write', invalid('NUL')],
  ['an empty path', '', 'read', invalid('non-empty')],
  ['a blank path', '   ', 'read', invalid('non-empty')],
  ['a directory named ..foo is inside', '..foo/c.txt', 'read', ok('..foo/c.txt')],
  ['.. inside a new name', 'dir/..bar', 'write', ok('dir/..bar')],
  ['dots inside a file name', 'a..txt', 'write', ok('a..txt')],
  ['a name made of three dots', '...', 'write', ok('...')],
  ['doubled slashes collapse', 'dir//b.txt', 'read', ok('dir/b.txt')],
  ['doubled and trailing slashes on a directory', 'dir///sub//', 'list', ok('dir/sub')],
  ['doubled slashes in an absolute path', 'ABS//dir//b.txt', 'read', ok('dir/b.txt')],
  ['a trailing slash on a directory', 'dir/', 'list', ok('dir')],
  ['a trailing slash on a file', 'dir/b.txt/', 'read', invalid('not a directory')],
  ['a trailing slash on a new directory', 'fresh/', 'write', ok('fresh')],
  ['two-dot leader (U+2025) is a name, not ..', '\u2025/x', 'write', ok('\u2025/x')],
  ['fullwidth dots are a name, not ..', '\uff0e\uff0e/outside', 'write', ok('\uff0e\uff0e/outside')],
  [
    'division slash (U+2215) is not a separator',
    'dir\u2215..\u2215..\u2215outside',
    'write',
    ok('dir\u2215..\u2215..\u2215outside'),
  ],
  ['a Cyrillic look-alike of the root name is another directory', 'BASE/r\u043e\u043et/a.txt', 'read', denied()],
  ['~ is a literal name', '~/a.txt', 'read', ok('~/a.txt')],
  ['a new file in a new directory', 'new-dir/new-file.txt', 'write', ok('new-dir/new-file.txt')],
  ['listing the root', '.', 'list', ok('.')],
  ['the root cannot be deleted', '.', 'delete', denied('workspace root')],
  ['the root cannot be written', 'ABS', 'write', denied('workspace root')],
  ['.env is protected', '.env', 'read', denied('protected')],
  ['.ENV in another case is protected', '.ENV', 'read', denied('protected')],
  ['.env.production is protected', '.env.production', 'write', denied('protected')],
  ['.env.example is a template, not a secret', '.env.example', 'read', ok('.env.example')],
  ['a symlink to .env is protected', 'notes-link', 'read', denied('protected')],
  ['a private key in .ssh', '.ssh/id_rsa', 'read', denied('credentials')],
  ['listing .ssh', '.ssh', 'list', denied()],
  ['nested .aws credentials', 'config/.aws/credentials', 'read', denied()],
  ['a .pem key', 'keys/server.pem', 'read', denied('private key')],
  ['reading .git internals is fine', '.git/config', 'read', ok('.git/config')],
  ['writing .git internals is not', '.git/config', 'write', denied('version-control')],
  ['deleting .git is not', '.git', 'delete', denied('version-control')],
  ['.gitignore is an ordinary file', '.gitignore', 'write', ok('.gitignore')],
  ["toolbelt's saved approvals cannot be written", '.toolbelt/approvals.json', 'write', denied("toolbelt's own state")],
  ["toolbelt's config cannot be written", 'toolbelt.config.json', 'write', denied("toolbelt's own config")],
  [
    "toolbelt's config cannot be read (it may hold tokens)",
    'toolbelt.config.json',
    'read',
    denied("toolbelt's own config"),
  ],
  ["toolbelt's config in another case cannot be read", 'TOOLBELT.CONFIG.JSON', 'read', denied("toolbelt's own config")],
  ["toolbelt's execution log cannot be read", '.toolbelt/executions.jsonl', 'read', denied("toolbelt's own state")],
  ['a gateway database in .toolbelt cannot be read', '.toolbelt/gateway.db', 'read', denied("toolbelt's own state")],
  ['Google sign-in tokens cannot be read', '.toolbelt/google-tokens.json', 'read', denied("toolbelt's own state")],
  [
    "a nested project's .toolbelt cannot be read",
    'dir/.toolbelt/approvals.json',
    'read',
    denied("toolbelt's own state"),
  ],
  ['.toolbelt cannot be deleted', '.toolbelt', 'delete', denied("toolbelt's own state")],
  ['.toolbelt can be listed (names are no secret)', '.toolbelt', 'list', ok('.toolbelt')],
  ['a file merely named like the config is ordinary', 'my-toolbelt.config.json', 'read', ok('my-toolbelt.config.json')],
];

function expand(p: string): string {
  return p.replace(/^ABS/, t.root).replace(/^BASE/, t.base);
}

describe('WorkspaceGuard.resolve', () => {
  it('has a table of at least 40 cases', () => expect(CASES.length).toBeGreaterThanOrEqual(40));

  it.each(CASES)('%s: %j (%s)', async (_what, path, access, expected) => {
    const run = guard.resolve(expand(path), access);
    if ('ok' in expected) {
      await expect(run).resolves.toBe(expected.ok);
      return;
    }
    const err = await run.then(
      (p) => new Error(`expected ${expected.code}, resolved to ${p}`),
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ToolError);
    expect((err as ToolError).code).toBe(expected.code);
    if (expected.says) expect((err as ToolError).message).toContain(expected.says);
  });
});

describe('WorkspaceGuard options', () => {
  it('lets a sensitive file through when the allow hook says so', async () => {
    const g = new WorkspaceGuard({ roots: [t.root], allowSensitive: (p) => p === join(t.root, '.env') });
    await expect(g.resolve('.env', 'read')).resolves.toBe(join(t.root, '.env'));
    await expect(g.resolve('.ssh/id_rsa', 'read')).rejects.toThrow(/protected/);
  });

  it('asks the allow hook on behalf of the calling tool, with the name that marks the secret', async () => {
    const asked: unknown[] = [];
    const g = new WorkspaceGuard({
      roots: [t.root],
      allowSensitive: (p, access, secret) => (asked.push([p, access, secret]), secret.tool === 'read_file'),
    });
    await expect(g.resolve('.env', 'read')).rejects.toThrow(/an allow rule that names this tool and this file/);
    const reader = g.forTool('read_file');
    expect(g.forTool('read_file')).toBe(reader);
    await expect(reader.resolve('.env', 'read')).resolves.toBe(join(t.root, '.env'));
    await expect(g.forTool('write_file').resolve('.env', 'write')).rejects.toThrow(
      '{"tool":"write_file","path":".env","action":"allow"}',
    );
    await expect(reader.withCwd('dir').resolve('../.env', 'read')).resolves.toBe(join(t.root, '.env'));
    expect(asked).toContainEqual([join(t.root, '.env'), 'read', { tool: 'read_file', name: '.env' }]);
    expect(asked).toContainEqual([join(t.root, '.env'), 'read', { name: '.env' }]);
  });

  it("never lets toolbelt's own files through, whatever the allow hook says", async () => {
    const g = new WorkspaceGuard({ roots: [t.root], allowSensitive: () => true });
    await expect(g.resolve('.env', 'read')).resolves.toBe(join(t.root, '.env'));
    await expect(g.resolve('toolbelt.config.json', 'read')).rejects.toThrow(/No rule changes this/);
    await expect(g.resolve('.toolbelt/approvals.json', 'write')).rejects.toThrow(/protected/);
  });

  it('refuses protectedPaths (and what lies below them) for all but listing, through links too', async () => {
    const g = new WorkspaceGuard({
      roots: [t.root],
      protectedPaths: [R('dir/b.txt'), R('state'), join(t.root, 'not-yet', 'gw.db')],
      allowSensitive: () => true,
    });
    for (const access of ['read', 'write', 'delete'] as const)
      await expect(g.resolve('dir/b.txt', access), access).rejects.toThrow(/toolbelt's own files/);
    await expect(g.resolve('link-in', 'read')).rejects.toThrow(/toolbelt's own files/);
    await expect(g.resolve('dir/b.txt', 'list')).resolves.toBe(R('dir/b.txt'));
    await expect(g.resolve('state/other-root/gateway.db', 'read')).rejects.toThrow(/protected/);
    await expect(g.resolve('not-yet/gw.db', 'write')).rejects.toThrow(/protected/);
    await expect(g.resolve('dir', 'delete')).rejects.toThrow('it holds dir/b.txt');
    await expect(g.resolve('dir', 'read')).resolves.toBe(R('dir'));
    await expect(g.resolve('a.txt', 'read')).resolves.toBe(R('a.txt'));
    expect([
      g.isProtected(R('dir/b.txt'), 'read'),
      g.isProtected(R('a.txt'), 'read'),
      g.isProtected(R('.env'), 'read'),
    ]).toEqual([true, false, true]);
    await expect(g.withCwd('dir').resolve('b.txt', 'read')).rejects.toThrow(/protected/);
  });

  it('accepts paths in any of several roots', async () => {
    const g = new WorkspaceGuard({ roots: [t.root, t.root2] });
    await expect(g.resolve(join(t.root2, 'x.txt'), 'read')).resolves.toBe(join(t.root2, 'x.txt'));
    await expect(g.resolve(join(t.outside, 'secret.txt'), 'read')).rejects.toThrow(/outside/);
  });

  it('resolves relative paths from its cwd and still keeps them inside', async () => {
    const g = new WorkspaceGuard({ roots: [t.root], cwd: 'dir' });
    await expect(g.resolve('b.txt', 'read')).resolves.toBe(join(t.root, 'dir', 'b.txt'));
    await expect(g.resolve('../a.txt', 'read')).resolves.toBe(join(t.root, 'a.txt'));
    await expect(g.resolve('../../outside/secret.txt', 'read')).rejects.toThrow(/outside/);
  });

  it('works with a root given through a symlink', async () => {
    const via = join(t.base, 'root-alias');
    symlinkSync(t.root, via);
    const g = new WorkspaceGuard({ roots: [via] });
    expect(g.roots).toEqual([t.root]);
    await expect(g.resolve(join(via, 'a.txt'), 'read')).resolves.toBe(join(t.root, 'a.txt'));
  });

  it('judges sensitivity below the root, not where the root sits', async () => {
    const odd = join(t.base, '.docker', 'project');
    mkdirSync(odd, { recursive: true });
    const g = new WorkspaceGuard({ roots: [odd] });
    await expect(g.resolve('main.go', 'write')).resolves.toBe(join(odd, 'main.go'));
  });

  it('refuses a root that does not exist or a cwd outside the roots', () => {
    expect(() => new WorkspaceGuard({ roots: [join(t.base, 'nope')] })).toThrow(/does not exist/);
    expect(() => new WorkspaceGuard({ roots: [t.root], cwd: t.outside })).toThrow(/outside the workspace roots/);
    expect(() => new WorkspaceGuard({ roots: [] })).toThrow(/at least one root/);
  });

  it('shows paths relative to their root', () => {
    expect(guard.display(join(t.root, 'dir', 'b.txt'))).toBe('dir/b.txt');
    expect(guard.display(t.root)).toBe('.');
    expect(guard.display(join(t.base, 'root2', 'x.txt'))).toBe(join(t.base, 'root2', 'x.txt'));
  });
});
