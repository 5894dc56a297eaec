// The search benchmarks' corpus: copies of this repository's installed npm packages under
// bench/.corpus (gitignored), made with hard links (cp -al) so 100k files cost no extra disk.
// Directories are named pkgs-N, not node_modules, so the repository's .gitignore does not hide them.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { benchRoot, repoRoot } from '../lib/harness.mjs';

export const corpusRoot = join(benchRoot, '.corpus');

function countFiles(dir) {
  let n = 0;
  const stack = [dir];
  while (stack.length) {
    const d = stack.pop();
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.isDirectory()) stack.push(join(d, e.name));
      else if (e.isFile()) n++;
    }
  }
  return n;
}

/** `copies` copies of node_modules under bench/.corpus/NAME; returns its path and file count. */
export function ensureCorpus(name, copies) {
  const dir = join(corpusRoot, name);
  const source = join(repoRoot, 'node_modules');
  const marker = join(dir, `.complete-${copies}`);
  if (!existsSync(marker)) {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    for (let i = 1; i <= copies; i++) {
      const target = join(dir, `pkgs-${i}`);
      try {
        execFileSync('cp', ['-al', source, target]);
      } catch {
        execFileSync('cp', ['-a', source, target]);
      }
    }
    execFileSync('touch', [marker]);
  }
  return { dir, files: countFiles(dir), copies };
}

/** Files a search sees in `dir` (rg --files: after .gitignore and the like), or undefined without rg. */
export function searchableFiles(dir, rgPath) {
  if (!rgPath) return undefined;
  const out = execFileSync(rgPath, ['--files', '--hidden', '--no-require-git', '--no-config'], { cwd: dir, maxBuffer: 1 << 28 });
  return out.toString().split('\n').filter(Boolean).length;
}

/** A compare() result as a Markdown table in milliseconds (searches take ms, not µs). */
export function msTable(result, unit) {
  const lines = [`| subject | ${unit} | p50 ms | p99 ms | ratio to ${result.anchor} |`, '|---|---:|---:|---:|---:|'];
  for (const r of result.rows) {
    lines.push(
      `| ${r.subject} | ${r.callsPerSec.toFixed(2)} | ${(r.p50us / 1000).toFixed(0)} | ${(r.p99us / 1000).toFixed(0)} | ${r.ratioToAnchor.toFixed(2)}x |`,
    );
  }
  return lines.join('\n');
}
