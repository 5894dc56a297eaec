// grep: toolbelt's grep tool (through the executor, rg engine and JS engine) against plain `rg`
// on a corpus of >= 20k files, side by side in one run. Goals: rg engine within 1.2x of rg (ratio
// >= 0.83), JS engine within 3x (ratio >= 0.33).
import { spawn } from 'node:child_process';
import { Executor, Policy, ToolRegistry, textOf } from '../../packages/core/dist/index.js';
import { createGrep, findRg, WorkspaceGuard } from '../../packages/tools/dist/index.js';
import { compare, machineLine, writeDocSection } from '../lib/harness.mjs';
import { ensureCorpus, msTable, searchableFiles } from './corpus.mjs';

const rg = findRg();
if (!rg) {
  console.error('bench/grep needs ripgrep as the anchor: apt-get install -y ripgrep');
  process.exit(1);
}
const corpus = ensureCorpus('grep', 3);
const searchable = searchableFiles(corpus.dir, rg);
console.log(`corpus: ${corpus.files} files, ${searchable} searched after .gitignore (${corpus.dir})`);

function executorWith(engine) {
  const registry = new ToolRegistry();
  registry.register(createGrep({ engine }));
  return new Executor({ registry, policy: new Policy({ mode: 'yolo' }), workspace: new WorkspaceGuard({ roots: [corpus.dir] }), maxOutputChars: 10_000_000 });
}
const viaRg = executorWith('rg');
const viaJs = executorWith('js');

function plainRg(args) {
  return new Promise((resolve, reject) => {
    const child = spawn(rg, ['--no-config', ...args, '.'], { cwd: corpus.dir, stdio: ['ignore', 'pipe', 'ignore'] });
    const chunks = [];
    child.stdout.on('data', (c) => chunks.push(c));
    child.on('error', reject);
    child.on('close', () => resolve(Buffer.concat(chunks)));
  });
}

const CASES = [
  { name: 'regex, content', input: { pattern: 'function\\s+\\w+Sync\\(' }, rgArgs: ['-n', '-e', 'function\\s+\\w+Sync\\('] },
  { name: 'literal, content', input: { pattern: 'AbortSignal.timeout', literal: true }, rgArgs: ['-n', '-F', '-e', 'AbortSignal.timeout'] },
  { name: 'files with matches', input: { pattern: 'TODO', output_mode: 'files_with_matches' }, rgArgs: ['-l', '-e', 'TODO'] },
];

const sections = [];
const verdicts = [];
for (const c of CASES) {
  const input = { ...c.input, max_results: 5000 };
  // Sanity: both engines return the same matches, and as many as plain rg finds.
  const [a, b, plain] = await Promise.all([viaRg.call({ tool: 'grep', input }), viaJs.call({ tool: 'grep', input }), plainRg(c.rgArgs)]);
  if (a.status !== 'success' || b.status !== 'success') throw new Error(`grep failed: ${textOf(a)} ${textOf(b)}`);
  if (a.metadata.engine !== 'rg' || b.metadata.engine !== 'js') throw new Error('engines were not the ones asked for');
  if (textOf(a) !== textOf(b)) throw new Error(`engines disagree on ${c.name}`);
  const plainCount = plain.toString().split('\n').filter(Boolean).length;
  console.log(`${c.name}: ${a.metadata.files} files, ${a.metadata.matches} matching lines (plain rg printed ${plainCount} lines)`);
  const result = await compare({
    name: `grep-${c.name.replace(/\W+/g, '-')}`,
    anchor: 'rg',
    iterations: Number(process.env.BENCH_ITER ?? 15),
    rounds: 5,
    warmup: 2,
    subjects: {
      rg: () => plainRg(c.rgArgs),
      'toolbelt grep (rg engine)': () => viaRg.call({ tool: 'grep', input }),
      'toolbelt grep (JS engine)': () => viaJs.call({ tool: 'grep', input }),
    },
  });
  const ratio = (n) => result.rows.find((r) => r.subject === n).ratioToAnchor;
  const rgRatio = ratio('toolbelt grep (rg engine)');
  const jsRatio = ratio('toolbelt grep (JS engine)');
  verdicts.push(
    `${c.name}: rg engine ${(1 / rgRatio).toFixed(2)}x rg's time (goal <= 1.2x): ${1 / rgRatio <= 1.2 ? 'met' : 'NOT met'}; JS engine ${(1 / jsRatio).toFixed(2)}x (goal <= 3x): ${1 / jsRatio <= 3 ? 'met' : 'NOT met'}`,
  );
  sections.push(
    `### ${c.name}: \`${c.input.pattern}\` (${a.metadata.matches || a.metadata.files} ${c.input.output_mode ? 'files' : 'matching lines'})\n\nAnchor: \`rg ${c.rgArgs.join(' ')} .\`\n\n${msTable(result, 'searches/s')}`,
  );
}
await viaRg.close();
await viaJs.close();
console.log(verdicts.join('\n'));

writeDocSection(
  'grep',
  `## grep — toolbelt grep vs plain ripgrep

The \`grep\` tool called through the executor (guard, validation, policy, output formatting
included) with each engine, against plain \`rg\` spawned on the same corpus in the same run,
interleaved. Corpus: ${corpus.files.toLocaleString('en-US')} files (${corpus.copies} hard-linked copies of this repository's
node_modules under bench/.corpus), ${searchable.toLocaleString('en-US')} of them searched after .gitignore (the rest
are in \`dist/\` directories the repository ignores). ${machineLine()} Ratio = searches/s relative
to rg (1.00x = as fast); "x rg's time" below is its inverse. The machine is shared (2 cores), so
single runs move by ±20%.

${sections.join('\n\n')}

- ${verdicts.join('\n- ')}

Run: \`apt-get install -y ripgrep && npm run build && node bench/grep/run.mjs\`.`,
);
