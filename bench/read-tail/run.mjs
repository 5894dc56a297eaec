// read-tail: memory and time of read_file for the last 100 lines of a 1 GB file, each read in a
// fresh process, next to `tail -n 100` and to reading the whole file into memory. Goal: toolbelt's
// read stays under 100 MB. The file is created under bench/.corpus and deleted afterwards.
import { execFileSync, spawnSync } from 'node:child_process';
import { closeSync, mkdirSync, openSync, rmSync, statSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createHash } from 'node:crypto';
import { assertSameWork, machineLine, report, writeDocSection } from '../lib/harness.mjs';
import { corpusRoot } from '../grep/corpus.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const dir = join(corpusRoot, 'read-tail');
const file = join(dir, 'big.log');
const GB = 2 ** 30;
const RUNS = Number(process.env.BENCH_ITER ?? 3);

function makeFile() {
  mkdirSync(dir, { recursive: true });
  const line = (i) =>
    `2026-11-22T03:00:00.000Z INFO request ${String(i).padStart(9, '0')} took 42ms path=/api/items/${i}\n`;
  const block = Buffer.from(Array.from({ length: 10_000 }, (_, i) => line(i)).join(''));
  const linesPerBlock = 10_000;
  const fd = openSync(file, 'w');
  let written = 0;
  let lines = 0;
  while (written + block.length <= GB) {
    writeSync(fd, block);
    written += block.length;
    lines += linesPerBlock;
  }
  const tail = Buffer.from(Array.from({ length: 100 }, (_, i) => `tail line ${i + 1}\n`).join(''));
  writeSync(fd, tail);
  closeSync(fd);
  return { bytes: statSync(file).size, lines: lines + 100 };
}

function measure(mode, lastLine) {
  const r = spawnSync(process.execPath, ['--expose-gc', join(here, 'measure.mjs'), mode, file, String(lastLine)], {
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`${mode} failed: ${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').pop());
}

function tailRun() {
  const r = spawnSync('/usr/bin/time', ['-f', '%e %M', 'tail', '-n', '100', file], { encoding: 'utf8' });
  const [secs, kb] = r.stderr.trim().split('\n').pop().split(' ').map(Number);
  if (r.stdout.trim().split('\n').length !== 100) throw new Error('tail did not print 100 lines');
  const answer = createHash('sha256').update(r.stdout.replace(/\n$/, '')).digest('hex');
  return { ms: secs * 1000, maxRssMb: kb / 1024, answer };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const created = makeFile();
console.log(`file: ${(created.bytes / GB).toFixed(2)} GB, ${created.lines.toLocaleString('en-US')} lines`);
try {
  execFileSync('cat', [file], { stdio: 'ignore', maxBuffer: 0 }); // warm the page cache
} catch {
  // cat to /dev/null cannot fail in a way that matters here
}
const rows = [];
/** Each subject's reads, as hashes of the lines it returned: all must be the same. */
const answers = {};
const SUBJECTS = {
  toolbelt: 'toolbelt read_file offset=-100 (file tools imported)',
  'toolbelt-all': 'same, whole @toolbelt/tools imported',
  naive: 'readFileSync whole file',
};
for (const mode of Object.keys(SUBJECTS)) {
  const runs = Array.from({ length: RUNS }, () => measure(mode, created.lines));
  runs.forEach((r, i) => (answers[`${mode} run ${i + 1}`] = r.answer));
  rows.push({
    subject: SUBJECTS[mode],
    ms: median(runs.map((r) => r.ms)),
    maxRssMb: Math.max(...runs.map((r) => r.maxRssMb)),
    baselineRssMb: median(runs.map((r) => r.rssBeforeMb)),
    heapUsedMb: median(runs.map((r) => r.heapUsedMb)),
  });
}
if (existsTail()) {
  const runs = Array.from({ length: RUNS }, tailRun);
  runs.forEach((r, i) => (answers[`tail run ${i + 1}`] = r.answer));
  rows.push({
    subject: 'tail -n 100',
    ms: median(runs.map((r) => r.ms)),
    maxRssMb: Math.max(...runs.map((r) => r.maxRssMb)),
  });
}
rmSync(dir, { recursive: true, force: true });
assertSameWork('read-tail', answers);

function existsTail() {
  try {
    statSync('/usr/bin/time');
    return true;
  } catch {
    return false;
  }
}

const tb = rows[0];
const all = rows[1];
const verdict = `toolbelt read_file: peak RSS ${tb.maxRssMb.toFixed(1)} MB for the whole process (goal < 100 MB): ${tb.maxRssMb < 100 ? 'met' : 'NOT met'}; the read itself adds ${(tb.maxRssMb - tb.baselineRssMb).toFixed(1)} MB (${(all.maxRssMb - all.baselineRssMb).toFixed(1)} MB with the whole package loaded, whose imports alone take ${all.baselineRssMb.toFixed(0)} MB).`;
report({ name: 'read-tail', anchor: 'tail -n 100', concurrency: 1, iterations: RUNS, rows });
console.log(verdict);
const fmt = (v, d = 1) => (v === undefined ? '' : v.toFixed(d));
writeDocSection(
  'read-tail',
  `## read-tail — last 100 lines of a 1 GB file

\`read_file\` with \`offset: -100\` on a ${(created.bytes / GB).toFixed(2)} GB log of ${created.lines.toLocaleString('en-US')} lines,
through the executor, each run in a fresh Node process (imports, workspace and executor included
in the peak; "RSS before" is the process after its imports, before the call). It scans backwards for the last 100 newlines, then counts the newlines before them
in 4 MB chunks so the lines carry their real numbers. Beside it: reading the whole file into
memory, and GNU \`tail -n 100\`. Median time and highest peak RSS of ${RUNS} runs. ${machineLine()}

| subject | time ms | peak RSS MB | RSS before the read MB | heap used after MB |
|---|---:|---:|---:|---:|
${rows.map((r) => `| ${r.subject} | ${fmt(r.ms, 0)} | ${fmt(r.maxRssMb)} | ${fmt(r.baselineRssMb)} | ${fmt(r.heapUsedMb)} |`).join('\n')}

- ${verdict}

Run: \`npm run build && node bench/read-tail/run.mjs\` (creates and deletes the 1 GB file).`,
  [
    {
      goal: 'read_file of the last 100 lines of 1 GB: peak RSS < 100 MB',
      met: tb.maxRssMb < 100,
      figure: `${tb.maxRssMb.toFixed(1)} MB`,
      why: `imports alone take ${tb.baselineRssMb.toFixed(0)} MB; see the read-tail section`,
    },
  ],
);
