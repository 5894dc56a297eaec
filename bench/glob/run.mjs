// glob: toolbelt's glob tool (through the executor: guard, .gitignore, newest-first sort by mtime,
// output) against fast-glob on the same trees, side by side in one run. Goal: at least as fast as
// fast-glob (ratio >= 1.00). Two trees: ~40k files and ~110k files.
import fg from 'fast-glob';
import { Executor, Policy, ToolRegistry, textOf } from '../../packages/core/dist/index.js';
import { glob, globFiles, WorkspaceGuard } from '../../packages/tools/dist/index.js';
import { compare, machineLine, writeDocSection } from '../lib/harness.mjs';
import { ensureCorpus, msTable } from '../grep/corpus.mjs';

const TREES = [
  { name: 'grep', copies: 3 },
  { name: 'glob-large', copies: 8 },
];
const PATTERN = '**/*.js';

const sections = [];
const verdicts = [];
for (const t of TREES) {
  const corpus = ensureCorpus(t.name, t.copies);
  const registry = new ToolRegistry();
  registry.register(glob);
  const executor = new Executor({ registry, policy: new Policy({ mode: 'yolo' }), workspace: new WorkspaceGuard({ roots: [corpus.dir] }) });
  const input = { pattern: PATTERN, limit: 100 };
  const sanity = await executor.call({ tool: 'glob', input });
  if (sanity.status !== 'success') throw new Error(textOf(sanity));
  const all = await fg(PATTERN, { cwd: corpus.dir, dot: true });
  const every = await globFiles(corpus.dir, PATTERN, { includeIgnored: true });
  if (every.length !== all.length) throw new Error(`glob with include_ignored found ${every.length} files, fast-glob ${all.length}`);
  console.log(`${t.name}: ${corpus.files} files; ${PATTERN}: fast-glob ${all.length}, toolbelt ${sanity.metadata.matches} after .gitignore`);
  const result = await compare({
    name: `glob-${t.name}`,
    anchor: 'fast-glob',
    iterations: Number(process.env.BENCH_ITER ?? 20),
    rounds: 5,
    warmup: 2,
    subjects: {
      'fast-glob': () => fg(PATTERN, { cwd: corpus.dir, dot: true }),
      'fast-glob + stats': () => fg(PATTERN, { cwd: corpus.dir, dot: true, stats: true }),
      'toolbelt glob (tool)': () => executor.call({ tool: 'glob', input }),
      'toolbelt glob, include_ignored': () => executor.call({ tool: 'glob', input: { ...input, include_ignored: true } }),
    },
  });
  await executor.close();
  const ratio = (n) => result.rows.find((r) => r.subject === n).ratioToAnchor;
  verdicts.push(
    `${corpus.files.toLocaleString('en-US')} files: toolbelt glob ${ratio('toolbelt glob (tool)').toFixed(2)}x fast-glob's speed (goal >= 1.00x): ${ratio('toolbelt glob (tool)') >= 1 ? 'met' : 'NOT met'}; with include_ignored (the same ${all.length.toLocaleString('en-US')} matches as fast-glob) ${ratio('toolbelt glob, include_ignored').toFixed(2)}x`,
  );
  sections.push(
    `### ${corpus.files.toLocaleString('en-US')} files (${t.copies} copies of node_modules)\n\n\`${PATTERN}\`: ${all.length.toLocaleString('en-US')} files match; ${sanity.metadata.matches.toLocaleString('en-US')} after .gitignore.\n\n${msTable(result, 'globs/s')}`,
  );
}
console.log(verdicts.join('\n'));

writeDocSection(
  'glob',
  `## glob — toolbelt glob vs fast-glob

The \`glob\` tool through the executor (guard, .gitignore rules, an mtime for every match to sort
newest first, the first 100 paths formatted) against \`fast-glob\` (\`dot: true\`, no ignore
files, no sorting) on trees of hard-linked copies of this repository's node_modules, in the same
run. "fast-glob + stats" also stats every match, as newest-first needs. ${machineLine()}
Ratio = globs/s relative to fast-glob.

${sections.join('\n\n')}

- ${verdicts.join('\n- ')}

Run: \`npm run build && node bench/glob/run.mjs\`.`,
);
