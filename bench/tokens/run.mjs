// bench/tokens: what toolbelt's tool definitions and results cost a model, against
// @modelcontextprotocol/server-filesystem on the same corpus, both driven over MCP by the official
// SDK client in one run, counted with o200k (gpt-tokenizer) and cl100k (js-tiktoken).
// Run after `npm run build`: node bench/tokens/run.mjs
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assertSameWork, machineLine, report, repoRoot, writeDocSection } from '../lib/harness.mjs';
import { cases } from './cases.mjs';
import { count, definitionText } from './count.mjs';
import { FILESYSTEM, TOOLBELT, connect, groupsFlagAccepted } from './servers.mjs';
import { definitionRows, goals, markdown } from './tables.mjs';
import { INTEGRATION_TOOLS } from '../../packages/integrations/dist/index.js';

// The 8 file and search tools the issue budgets on their own.
const FILE_SEARCH = [
  'read_file',
  'write_file',
  'edit_file',
  'list_directory',
  'create_directory',
  'move_file',
  'glob',
  'grep',
];

const zod = join(repoRoot, 'node_modules', 'zod');
const zodVersion = JSON.parse(readFileSync(join(zod, 'package.json'), 'utf8')).version;
const dir = mkdtempSync(join(tmpdir(), 'toolbelt-bench-tokens-'));
const root = join(dir, 'zod');
cpSync(join(zod, 'src'), root, { recursive: true });

const sum = (texts) => count(texts.join(''));
const defs = (tools) => sum(tools.map(definitionText));
const pair = (what, theirs, ours, extra = {}) => ({ what, theirs, ours, ...extra });

async function startFigures(tb, fs) {
  const tbFiles = tb.list.tools.filter((t) => FILE_SEARCH.includes(t.name));
  // The budget is the built-ins'; integrations (on when their credentials are set) are counted apart.
  const integration = new Set(Object.values(INTEGRATION_TOOLS).flat());
  const builtins = tb.list.tools.filter((t) => !integration.has(t.name));
  const integrations = tb.list.tools.filter((t) => integration.has(t.name));
  const rows = [
    pair(
      `all definitions (${fs.list.tools.length} vs ${builtins.length} built-in tools)`,
      defs(fs.list.tools),
      defs(builtins),
      { key: 'defs' },
    ),
    pair(
      `integration tools on here (${integrations.map((t) => t.name).join(', ') || 'none'})`,
      { o200k: NaN, cl100k: NaN },
      defs(integrations),
    ),
    pair(`the 8 file/search tools`, { o200k: NaN, cl100k: NaN }, defs(tbFiles), { key: 'files' }),
    pair('full tools/list answer', count(JSON.stringify(fs.list)), count(JSON.stringify(tb.list)), { key: 'list' }),
    pair('server instructions', count(fs.instructions), count(tb.instructions)),
  ];
  if (!groupsFlagAccepted(root)) {
    rows.push(
      pair('`toolbelt mcp --groups files,search` start', null, null, {
        key: 'groups',
        missing: 'not available: this build refuses --groups',
      }),
    );
    return rows;
  }
  const grouped = await connect(
    [TOOLBELT, 'mcp', '--groups', 'files,search', '--root', root, '--mode', 'auto-edit'],
    root,
  );
  rows.push(
    pair(
      '`--groups files,search`: full tools/list answer',
      count(JSON.stringify(fs.list)),
      count(JSON.stringify(grouped.list)),
      { key: 'groups' },
    ),
  );
  rows.push(
    pair(
      '`--groups files,search` start: definitions + instructions',
      sum([...fs.list.tools.map(definitionText), fs.instructions]),
      sum([...grouped.list.tools.map(definitionText), grouped.instructions]),
      { key: 'start' },
    ),
  );
  await grouped.client.close();
  return rows;
}

async function resultFigures(tb, fs) {
  const rows = [];
  for (const c of cases(root, tb.client, fs.client)) {
    const [theirs, ours] = [await c.theirs(), await c.ours()];
    if (c.same)
      assertSameWork(`tokens: ${c.what}`, {
        [c.anchor ?? 'server-filesystem']: c.same[1](theirs),
        toolbelt: c.same[0](ours),
      });
    if (process.env.BENCH_TOKENS_SHOW)
      console.log(`--- ${c.what}\n[theirs] ${theirs.slice(0, 400)}\n[ours] ${ours.slice(0, 400)}`);
    rows.push(pair(c.what, count(theirs), count(ours), { key: c.key, anchor: c.anchor }));
    if (c.raw !== undefined)
      rows.push(
        pair('the same whole file vs its raw text', count(c.raw), count(ours), { key: 'read', anchor: 'raw text' }),
      );
  }
  return rows;
}

let tb;
let fs;
try {
  // auto-edit: the edit case must run without an approver (the SDK client offers no elicitation).
  tb = await connect([TOOLBELT, 'mcp', '--root', root, '--mode', 'auto-edit'], root);
  fs = await connect([FILESYSTEM, root], root);
  const start = await startFigures(tb, fs);
  const results = await resultFigures(tb, fs);
  const perTool = definitionRows(tb.list.tools, fs.list.tools);
  const held = goals([...start, ...results]);
  report({
    name: 'tokens',
    anchor: 'server-filesystem',
    concurrency: 1,
    iterations: 1,
    rows: [...start, ...results].map((r) => r),
  });
  console.log(held.map((g) => `${g.met ? 'met    ' : 'NOT met'}  ${g.goal} (${g.figure})`).join('\n'));
  writeDocSection(
    'tokens',
    markdown({
      start,
      results,
      perTool,
      held,
      corpus: `zod ${zodVersion} src/ (${countFiles(root)} files)`,
      machine: machineLine(),
    }),
    held.map((g) => ({ ...g, why: 'see the tokens section' })),
  );
} finally {
  await tb?.client.close();
  await fs?.client.close();
  rmSync(dir, { recursive: true, force: true });
}

function countFiles(path) {
  return readdirSync(path, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).length;
}
