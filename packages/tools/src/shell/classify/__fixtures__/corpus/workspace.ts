// The workspace the corpus runs in: the files its commands name (by extension: text, JSON,
// gzip, tar, checksum lists), a git repository with five commits, a branch `feature` and a tag
// `v1.0.0`, and the secrets property's planted secrets (in the root, the home, another user's
// home, and outside behind a link), whose markers no command may print.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { scratchDir } from '../../../../sandbox/__fixtures__/confined.js';
import { plantSecrets } from '../../../../sandbox/__fixtures__/secret-scripts.js';
import { loadWorkspaceEntries } from './corpus.js';

export interface CorpusWorkspace {
  ws: string;
  home: string;
  /** The directory of other users' homes. */
  homes: string;
  /** A directory outside, where a link in the workspace points. */
  out: string;
  markers: Record<string, string>;
}

const TEXT = 'alpha 1 foo\nbeta 2 bar\ngamma 3 baz\nbbo target 10\n';

function git(cwd: string, ...args: string[]): void {
  execFileSync('git', ['-c', 'init.defaultBranch=main', '-c', 'user.name=t', '-c', 'user.email=t@x', ...args], {
    cwd,
    stdio: 'ignore',
  });
}

function contentFor(path: string, ws: string): Buffer | string {
  if (/\.json$/.test(path)) return '[{"name":"a","url":"u1","key_name":1},{"name":"b","url":"u2","key_name":2}]\n';
  if (/\.gz$/.test(path) && !/\.tar\.gz$/.test(path)) return gzipSync(TEXT);
  if (/\.(md5|sha1|sha256|sha512)$/.test(path)) {
    const algo = /\.md5$/.test(path) ? 'md5' : path.slice(path.lastIndexOf('.') + 1);
    return `${createHash(algo)
      .update(readFileSync(join(ws, 'path/to/file')))
      .digest('hex')}  path/to/file\n`;
  }
  return TEXT;
}

function writeFiles(ws: string): void {
  const entries = loadWorkspaceEntries();
  for (const [rel, kind] of Object.entries(entries)) if (kind === 'dir') mkdirSync(join(ws, rel), { recursive: true });
  mkdirSync(join(ws, 'path/to'), { recursive: true });
  writeFileSync(join(ws, 'path/to/file'), TEXT);
  for (const [rel, kind] of Object.entries(entries)) {
    if (kind === 'dir') writeFileSync(join(ws, rel, 'notes.txt'), TEXT);
    else if (!/\.(tar|tar\.gz|tar\.bz2|tar\.xz)$/.test(rel) && rel !== 'path/to/file') {
      mkdirSync(dirname(join(ws, rel)), { recursive: true });
      writeFileSync(join(ws, rel), contentFor(rel, ws));
    }
  }
  for (const [rel, kind] of Object.entries(entries)) {
    const flag = /\.tar$/.test(rel)
      ? 'cf'
      : /\.tar\.gz$/.test(rel)
        ? 'czf'
        : /\.tar\.bz2$/.test(rel)
          ? 'cjf'
          : /\.tar\.xz$/.test(rel)
            ? 'cJf'
            : '';
    if (kind === 'file' && flag) execFileSync('tar', [flag, join(ws, rel), '-C', ws, 'path/to/file']);
  }
}

/** A repository of five commits of `path/` (no secret in its history), a branch and a tag. */
function makeRepository(ws: string): void {
  git(ws, 'init', '-q');
  for (let i = 1; i <= 5; i++) {
    writeFileSync(join(ws, 'path/to/file'), `${TEXT}commit ${i}\n`);
    git(ws, 'add', 'path');
    git(ws, 'commit', '-qm', `change ${i}`);
    if (i === 3) git(ws, 'tag', '-a', '-m', 'v1', 'v1.0.0');
  }
  git(ws, 'branch', 'feature', 'HEAD~1');
}

export function makeCorpusWorkspace(): CorpusWorkspace {
  const ws = scratchDir('tb-corpus-ws-');
  const home = scratchDir('tb-corpus-home-');
  const homes = scratchDir('tb-corpus-homes-');
  const out = scratchDir('tb-corpus-out-');
  const { markers } = plantSecrets(ws, home, homes, out);
  writeFiles(ws);
  makeRepository(ws);
  return { ws, home, homes, out, markers };
}
