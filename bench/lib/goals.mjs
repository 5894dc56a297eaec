// The goal table at the top of docs/benchmarks.md, generated, never written by hand: each bench
// hands its goals to writeDocSection(name, markdown, goals), and the table is rendered again from
// the records the document keeps (one JSON comment per bench inside the table's section). A single
// bench's run replaces its own rows; `npm run bench` clears them all first, so after a full run
// every row comes from that run.
import { availableParallelism, loadavg } from 'node:os';

const START = '<!-- bench:goals -->';
const END = '<!-- /bench:goals -->';
const RECORD = /^<!-- goals (.*) -->$/gm;

/*
 * One goal of a bench: `figure` is the measured value with its ratio ("1.18x rg's time"), `why`
 * where the time goes when it is not met.
 * @typedef {{ goal: string, met: boolean, figure: string, why?: string }} Goal
 */

/** This bench's goals with the date, the load average (1, 5, 15 min) and the cores of the run. */
export function goalRecord(bench, goals) {
  for (const g of goals)
    if (typeof g.goal !== 'string' || typeof g.met !== 'boolean' || typeof g.figure !== 'string')
      throw new Error(`${bench}: a goal needs { goal, met, figure }: ${JSON.stringify(g)}`);
  return {
    bench,
    date: new Date().toISOString().slice(0, 16).replace('T', ' '),
    load: loadavg().map((l) => Number(l.toFixed(2))),
    cores: availableParallelism(),
    goals,
  };
}

function recordsOf(doc) {
  const i = doc.indexOf(START);
  const j = doc.indexOf(END);
  if (i < 0 || j < i) return [];
  return [...doc.slice(i, j).matchAll(RECORD)].map((m) => JSON.parse(m[1]));
}

const cell = (text) => String(text).replaceAll('|', '\\|').replaceAll('\n', ' ');

function render(records) {
  const rows = records.flatMap((r) =>
    r.goals.map(
      (g) =>
        `| ${r.bench} | ${cell(g.goal)} | ${cell(g.figure)} | ${g.met ? 'met' : '**not met**'} | ${g.met ? '' : cell(g.why ?? 'not said')} | ${r.date} UTC, load ${r.load.join(' ')} on ${r.cores} cores |`,
    ),
  );
  return [
    START,
    '| bench | goal | result | verdict | where the time goes (not met) | run (UTC, load average 1/5/15 min) |',
    '|---|---|---|---|---|---|',
    ...rows,
    '',
    ...records.map((r) => `<!-- goals ${JSON.stringify(r)} -->`),
    END,
  ].join('\n');
}

function replaceTable(doc, records) {
  const block = render(records);
  const i = doc.indexOf(START);
  const j = doc.indexOf(END);
  if (i >= 0 && j > i) return doc.slice(0, i) + block + doc.slice(j + END.length);
  // No table yet: it goes before the first bench section.
  const first = doc.indexOf('<!-- bench:');
  return first >= 0 ? `${doc.slice(0, first)}${block}\n\n${doc.slice(first)}` : `${doc.trimEnd()}\n\n${block}\n`;
}

/** The document with this bench's rows replaced by `record`'s (the other benches' rows kept, in order). */
export function withGoals(doc, record) {
  const records = recordsOf(doc);
  const at = records.findIndex((r) => r.bench === record.bench);
  if (at >= 0) records[at] = record;
  else records.push(record);
  return replaceTable(doc, records);
}

/** The document with an empty goal table, before a full run fills it. */
export function withoutGoals(doc) {
  return replaceTable(doc, []);
}

/** Every goal recorded in the document: { bench, goal, met, ... }. */
export function goalsIn(doc) {
  return recordsOf(doc).flatMap((r) => r.goals.map((g) => ({ bench: r.bench, ...g })));
}
