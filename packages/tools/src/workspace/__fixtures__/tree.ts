// A workspace with every trap the guard must handle: symlinks in and out (files, directories,
// parents, dangling, loops), a sibling whose name extends the root's (prefix trap), names with dots
// and look-alike characters, and files holding secrets.
import { mkdirSync, mkdtempSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TrapTree {
  base: string;
  root: string;
  /** A sibling of root whose name starts with root's name. */
  root2: string;
  outside: string;
  secretText: string;
}

export function makeTrapTree(): TrapTree {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'tb-guard-')));
  const root = join(base, 'root');
  const root2 = join(base, 'root2');
  const outside = join(base, 'outside');
  const secretText = 'TOP-SECRET-OUTSIDE';
  for (const d of [
    root,
    root2,
    outside,
    join(root, 'dir', 'sub'),
    join(root, '..foo'),
    join(root, '.ssh'),
    join(root, 'config', '.aws'),
    join(root, 'keys'),
    join(root, '.git'),
    join(root, '~'),
  ]) {
    mkdirSync(d, { recursive: true });
  }
  const files: Record<string, string> = {
    'root/a.txt': 'alpha\n',
    'root/dir/b.txt': 'beta\n',
    'root/..foo/c.txt': 'gamma\n',
    'root/~/a.txt': 'tilde\n',
    'root/.env': 'API_KEY=1\n',
    'root/.env.example': 'API_KEY=\n',
    'root/.ssh/id_rsa': 'PRIVATE\n',
    'root/config/.aws/credentials': '[default]\n',
    'root/keys/server.pem': '-----BEGIN-----\n',
    'root/.git/config': '[core]\n',
    'root2/x.txt': 'other root\n',
    'outside/secret.txt': secretText + '\n',
  };
  for (const [rel, text] of Object.entries(files)) writeFileSync(join(base, rel), text);
  const links: Record<string, string> = {
    'root/link-in': 'dir/b.txt',
    'root/link-out': '../outside/secret.txt',
    'root/dirlink-out': '../outside',
    'root/dirlink-in': 'dir',
    'root/dangling-in': 'dir/new.txt',
    'root/dangling-out': '../outside/new.txt',
    'root/loop1': 'loop2',
    'root/loop2': 'loop1',
    'root/relparent-link': '..',
    'root/chain': 'link-in',
    'root/chain-out': 'dirlink-out/secret.txt',
    'root/notes-link': '.env',
    'root/abs-out': join(outside, 'secret.txt'),
  };
  for (const [rel, target] of Object.entries(links)) symlinkSync(target, join(base, rel));
  return { base, root, root2, outside, secretText };
}
