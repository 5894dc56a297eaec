// The markdown bench/tokens writes: figures side by side with the ratio per row, each toolbelt
// definition next to its server-filesystem counterpart, and the token budget's goals as met / NOT met.
import { count, definitionText } from './count.mjs';

// toolbelt tool -> the server-filesystem tool that answers the same need.
const COUNTERPART = {
  read_file: 'read_text_file',
  write_file: 'write_file',
  edit_file: 'edit_file',
  list_directory: 'list_directory',
  create_directory: 'create_directory',
  move_file: 'move_file',
  glob: 'search_files',
};

const fmt = (n) => (n === undefined || Number.isNaN(n) ? '—' : n.toLocaleString('en-US'));
const ratio = (ours, theirs) =>
  theirs && ours !== undefined && !Number.isNaN(theirs) ? `${(ours / theirs).toFixed(2)}x` : '—';

/** One row per toolbelt tool, and one per server-filesystem tool nothing of ours answers. */
export function definitionRows(ourTools, theirTools) {
  const theirs = new Map(theirTools.map((t) => [t.name, count(definitionText(t))]));
  const rows = ourTools.map((t) => ({
    ours: t.name,
    theirs: COUNTERPART[t.name],
    a: count(definitionText(t)),
    b: theirs.get(COUNTERPART[t.name]),
  }));
  const answered = new Set(Object.values(COUNTERPART));
  for (const t of theirTools) if (!answered.has(t.name)) rows.push({ theirs: t.name, b: theirs.get(t.name) });
  return rows;
}

/** The token budget's "What must hold", each checked on this run's o200k figures. */
export function goals(rows) {
  const by = (key) => rows.find((r) => r.key === key);
  const o = (r, side) => r?.[side]?.o200k;
  const defs = by('defs');
  const files = by('files');
  const theirPerTool = o(defs, 'theirs') / Number(/\((\d+) vs/.exec(defs.what)[1]);
  const check = (goal, row, limit, figure) =>
    row?.missing
      ? { goal, met: false, figure: row.missing }
      : { goal, met: o(row, 'ours') <= limit, figure: figure ?? `${fmt(o(row, 'ours'))} tokens` };
  const relative = (goal, row, factor) => ({
    goal,
    met: o(row, 'ours') <= factor * o(row, 'theirs'),
    figure: `${ratio(o(row, 'ours'), o(row, 'theirs'))} of ${row.anchor ?? 'server-filesystem'}`,
  });
  return [
    check('all built-in definitions <= 3,000 tokens', defs, 3000),
    check(
      `the 8 file/search tools <= 900 tokens, under server-filesystem's ${theirPerTool.toFixed(0)} a tool`,
      files,
      Math.min(900, theirPerTool * 8),
      `${fmt(o(files, 'ours'))} tokens, ${(o(files, 'ours') / 8).toFixed(0)} a tool`,
    ),
    check('`--groups files,search` tools/list <= 1,000 tokens', by('groups'), 1000),
    by('start')
      ? {
          goal: "agent start (definitions + instructions) under server-filesystem's",
          met: o(by('start'), 'ours') < o(by('start'), 'theirs'),
          figure: `${fmt(o(by('start'), 'ours'))} vs ${fmt(o(by('start'), 'theirs'))}`,
        }
      : {
          goal: "agent start (definitions + instructions) under server-filesystem's",
          met: false,
          figure: by('groups').missing,
        },
    relative('read_file <= 1.2x the raw text, line numbers kept', by('read'), 1.2),
    relative('20 grep matches <= 1.05x `rg -n --heading`', by('grep'), 1.05),
    relative('recursive listing <= 0.4x directory_tree', by('recursive'), 0.4),
  ];
}

function figureTable(rows) {
  const lines = [
    '| what | anchor o200k | toolbelt o200k | ratio | anchor cl100k | toolbelt cl100k | ratio |',
    '|---|---:|---:|---:|---:|---:|---:|',
  ];
  for (const r of rows) {
    if (r.missing) {
      lines.push(`| ${r.what} | — | ${r.missing} | — | — | — | — |`);
      continue;
    }
    const what = r.anchor ? `${r.what} (anchor: ${r.anchor})` : r.what;
    lines.push(
      `| ${what} | ${fmt(r.theirs.o200k)} | ${fmt(r.ours.o200k)} | ${ratio(r.ours.o200k, r.theirs.o200k)} | ${fmt(r.theirs.cl100k)} | ${fmt(r.ours.cl100k)} | ${ratio(r.ours.cl100k, r.theirs.cl100k)} |`,
    );
  }
  return lines.join('\n');
}

function perToolTable(rows) {
  const lines = ['| toolbelt tool | o200k | server-filesystem tool | o200k | ratio |', '|---|---:|---|---:|---:|'];
  for (const r of rows)
    lines.push(
      `| ${r.ours ?? '—'} | ${fmt(r.a?.o200k)} | ${r.theirs ?? '—'} | ${fmt(r.b?.o200k)} | ${ratio(r.a?.o200k, r.b?.o200k)} |`,
    );
  return lines.join('\n');
}

export function markdown({ start, results, perTool, held, corpus, machine }) {
  return [
    '## tokens — what definitions and results cost a model, vs server-filesystem',
    '',
    'toolbelt (`toolbelt mcp`, the built bundle) and @modelcontextprotocol/server-filesystem over stdio, each',
    `driven by the official SDK client in the same run, on one corpus: a copy of ${corpus}.`,
    'Counted with o200k (gpt-tokenizer) and cl100k (js-tiktoken). A definition is name + description +',
    'inputSchema as compact JSON; a result is its text blocks plus structuredContent when the server sends it.',
    'The anchor is server-filesystem unless the row names another; ratio = toolbelt / anchor.',
    `${machine}`,
    '',
    '**Start** (what every turn pays):',
    '',
    figureTable(start),
    '',
    '**Results** (the same information read back):',
    '',
    figureTable(results),
    '',
    '**What must hold** (the token budget, o200k):',
    '',
    ...held.map((g) => `- ${g.met ? 'met' : '**NOT met**'}: ${g.goal} — ${g.figure}`),
    '- No loss of guidance: not measured here (a test over the definitions lists it).',
    '',
    '<details><summary>Each definition (o200k)</summary>',
    '',
    perToolTable(perTool),
    '',
    '</details>',
    '',
    "server-filesystem repeats a file's text and a tree in structuredContent, which roughly doubles those",
    'answers. `--groups` rows read "not available" until',
    '`toolbelt mcp` accepts the flag. Run: `npm run build && npm run bench -- tokens` (needs ripgrep).',
  ].join('\n');
}
