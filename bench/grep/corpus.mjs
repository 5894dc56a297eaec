// The search benchmarks' corpus: real copies (never hard links: searches treat hard-linked files
// specially, so a linked corpus measures a different path) of this repository's installed npm
// packages under bench/.corpus (gitignored). Each corpus is a git repository of its own with one
// .gitignore (`dist/`), so what is skipped does not depend on the repository around it, and every
// subject can be given exactly the same rules. Directories are named pkgs-N, not node_modules.
import { execFileSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { benchRoot, repoRoot } from '../lib/harness.mjs';

export const corpusRoot = join(benchRoot, '.corpus');
/** The corpus's own ignore rules, for subjects that take patterns (fast-glob). */
export const CORPUS_IGNORE = ['**/dist/**'];
/** Directories every toolbelt walk skips (walk/filters.ts VCS_EXCLUDES), as fast-glob patterns. */
export const VCS_IGNORE = ['**/.git/**', '**/.hg/**', '**/.svn/**', '**/.toolbelt/**'];

/** Regular files under `dir`, and how many of them have more than one name. */
function countFiles(dir) {
  let files = 0;
  let linked = 0;
  const stack = [dir];
  while (stack.length) {
    const d = stack.pop();
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const abs = join(d, e.name);
      if (e.isDirectory()) stack.push(abs);
      else if (e.isFile()) {
        files++;
        if (lstatSync(abs).nlink > 1) linked++;
      }
    }
  }
  return { files, linked };
}

/** `copies` real copies of node_modules under bench/.corpus/NAME; returns its path and file count. */
export function ensureCorpus(name, copies) {
  const dir = join(corpusRoot, name);
  const source = join(repoRoot, 'node_modules');
  const marker = join(dir, `.complete-real-${copies}`);
  if (!existsSync(marker)) {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    execFileSync('git', ['init', '-q', dir]);
    writeFileSync(join(dir, '.gitignore'), 'dist/\n');
    // -R without -a: hard links inside the source become separate files too.
    for (let i = 1; i <= copies; i++)
      execFileSync('cp', ['-R', '--preserve=mode,timestamps', source, join(dir, `pkgs-${i}`)]);
    writeFileSync(marker, '');
  }
  const { files, linked } = countFiles(dir);
  if (linked) throw new Error(`${dir} has ${linked} hard-linked files; delete it to rebuild it from real copies`);
  return { dir, files, copies };
}

/** The flags that make plain rg search exactly what toolbelt's rg engine searches (search/rg.ts). */
export const RG_SAME_FILES = [
  '--hidden',
  '--no-require-git',
  '--no-ignore-global',
  '--no-ignore-exclude',
  ...['.git', '.hg', '.svn', '.toolbelt'].flatMap((d) => ['--glob', `!${d}`]),
];

/** Files a search sees in `dir` (rg --files with toolbelt's rules), or undefined without rg. */
export function searchableFiles(dir, rgPath) {
  if (!rgPath) return undefined;
  const out = execFileSync(rgPath, ['--files', '--no-config', ...RG_SAME_FILES], { cwd: dir, maxBuffer: 1 << 28 });
  return out.toString().split('\n').filter(Boolean).length;
}

/** A compare() result as a Markdown table in milliseconds (searches take ms, not µs). */
export function msTable(result, unit) {
  const lines = [
    `| subject | ${unit} | p50 ms | p99 ms | ratio to ${result.anchor} | CPU ms per call | CPU vs ${result.anchor} |`,
    '|---|---:|---:|---:|---:|---:|---:|',
  ];
  for (const r of result.rows) {
    const cpu = r.cpuMsPerCall === undefined ? '–' : r.cpuMsPerCall.toFixed(0);
    const cpuRatio = r.cpuToAnchor === undefined ? '–' : `${r.cpuToAnchor.toFixed(2)}x`;
    lines.push(
      `| ${r.subject} | ${r.callsPerSec.toFixed(2)} | ${(r.p50us / 1000).toFixed(0)} | ${(r.p99us / 1000).toFixed(0)} | ${r.ratioToAnchor.toFixed(2)}x | ${cpu} | ${cpuRatio} |`,
    );
  }
  return lines.join('\n');
}
