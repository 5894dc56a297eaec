// The repository a git command would use, found the way git finds it, and what its own config
// could make git run: a repository's config is data the agent (or whoever made the tree) may have
// written, so keys that name programs — fsmonitor, filter and diff drivers, hooks — mean the
// command is not a plain read. The user's own global config is trusted.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { gitDirOf } from '../../../workspace/git-dir.js';
import { belowRoot, realLoose } from './tree.js';

export interface RepoFacts {
  /** Why git there is not harmless; undefined when it is. */
  problem?: string;
  /** The work tree root, when there is one. */
  root?: string;
  gitDir?: string;
  /** The repository has hooks that commits, merges and checkouts would run. */
  hooks?: string;
}

// `section.key` (subsection dropped) of keys whose value is a program or moves git elsewhere.
const RISKY_KEYS = new Set([
  'core.fsmonitor',
  'core.hookspath',
  'core.sshcommand',
  'core.pager',
  'core.editor',
  'core.askpass',
  'core.gitproxy',
  'core.alternaterefscommand',
  'core.worktree',
  'filter.clean',
  'filter.smudge',
  'filter.process',
  'diff.textconv',
  'diff.command',
  'diff.external',
  'merge.driver',
  'credential.helper',
  'gpg.program',
  'sequence.editor',
  'uploadpack.packobjectshook',
  'remote.uploadpack',
  'remote.receivepack',
  'remote.proxy',
  'difftool.cmd',
  'mergetool.cmd',
  'pager',
  'alias',
  'include.path',
  'includeif.path',
  'http.proxy',
  'core.attributesfile',
  'protocol.allow',
]);

/** Keys of a git config file that name programs (`filter.lfs.clean` -> `filter.clean`). */
export function riskyConfigKeys(text: string): string[] {
  const out: string[] = [];
  let section = '';
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.replace(/^\s+/, '');
    if (!line || line.startsWith('#') || line.startsWith(';')) continue;
    const head = /^\[\s*([A-Za-z0-9.-]+)(?:\s+"(?:[^"\\]|\\.)*")?\s*\]\s*(.*)$/.exec(line);
    let rest = line;
    if (head) {
      const name = head[1].toLowerCase();
      const dot = name.indexOf('.');
      section = dot >= 0 ? name.slice(0, dot) : name;
      rest = head[2];
      if (section === 'pager' || section === 'alias' || section === 'include' || section === 'includeif')
        out.push(section);
      if (!rest) continue;
    }
    const key = /^([A-Za-z][A-Za-z0-9-]*)/.exec(rest)?.[1].toLowerCase();
    if (!key) continue;
    const name = `${section}.${key}`;
    if (RISKY_KEYS.has(name)) out.push(name);
  }
  return [...new Set(out)];
}

function isGitDir(dir: string): boolean {
  try {
    return (
      statSync(join(dir, 'HEAD')).isFile() &&
      statSync(join(dir, 'objects')).isDirectory() &&
      statSync(join(dir, 'refs')).isDirectory()
    );
  } catch {
    return false;
  }
}

/** The repository git would use from `dir`, or `explicitGitDir` (--git-dir), and its risks. */
export function repoFacts(dir: string, roots: readonly string[], explicitGitDir?: string): RepoFacts {
  let root: string | undefined;
  let gitDir = explicitGitDir;
  if (!gitDir) {
    for (let d = realLoose(dir); ; d = dirname(d)) {
      const dotGit = join(d, '.git');
      if (existsSync(dotGit)) {
        root = d;
        gitDir = gitDirOf(dotGit);
        break;
      }
      // git also takes a directory that is itself a repository (a bare one, any name).
      if (isGitDir(d)) return { problem: `${d} is a git repository not named .git; git would use its config` };
      if (dirname(d) === d) return {};
    }
  }
  if (!gitDir) return { problem: `${root}/.git does not point at a repository` };
  if (root && belowRoot(realLoose(root), roots) === undefined)
    return { problem: `the repository at ${root} is outside the workspace` };
  const real = realLoose(gitDir);
  // A linked worktree keeps its config in the main repository (commondir).
  const common = readCommonDir(real);
  for (const d of [real, common]) {
    if (d && belowRoot(d, roots) === undefined) return { problem: `the git directory ${d} is outside the workspace` };
  }
  const configs = [join(common ?? real, 'config'), join(real, 'config.worktree')];
  for (const file of configs) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    const risky = riskyConfigKeys(text);
    if (risky.length)
      return { problem: `the repository's config sets ${risky.slice(0, 3).join(', ')}, which can run programs` };
  }
  const hooks = activeHooks(join(common ?? real, 'hooks'));
  return { ...(root ? { root } : {}), gitDir: real, ...(hooks ? { hooks } : {}) };
}

function readCommonDir(gitDir: string): string | undefined {
  try {
    return resolve(gitDir, readFileSync(join(gitDir, 'commondir'), 'utf8').trim());
  } catch {
    return undefined;
  }
}

function activeHooks(dir: string): string | undefined {
  try {
    const names = readdirSync(dir).filter((n) => !n.endsWith('.sample'));
    return names.length ? names.slice(0, 3).join(', ') : undefined;
  } catch {
    return undefined;
  }
}
