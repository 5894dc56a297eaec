// The figures of a measurement, and the section of docs/policy.md that shows them: the share of
// harmless commands that run without asking, and why the harmless ones that asked did.
import { harmless, type Measurement, type Ran } from './measure.js';

export interface Group {
  why: string;
  count: number;
  examples: string[];
}

export interface Figures {
  total: number;
  reads: number;
  readsHarmless: number;
  readsRefused: Ran[];
  asked: number;
  sampled: number;
  sampledHarmless: number;
  /** The harmless asked commands the sample stands for, in the whole corpus. */
  askedHarmlessEstimate: number;
  /** readsHarmless / (readsHarmless + askedHarmlessEstimate). */
  share: number;
  groups: Group[];
  p50Ms: number;
  p99Ms: number;
}

/** The first reason's words, without the command they were said about: what groups asks. */
export function reasonGroup(reason: string): string {
  const first = reason.replace(/^\w+: /, '').split('; ')[0];
  const why = /\(([^()]*(?:\([^()]*\)[^()]*)*)\)\s*$/.exec(first)?.[1] ?? first;
  return why
    .replace(/\/\S+/g, 'PATH')
    .replace(/\b\d+\b/g, 'N')
    .replace(/["'`][^"'`]*["'`]/g, '…')
    .slice(0, 100);
}

function groupsOf(runs: readonly Ran[]): Group[] {
  const by = new Map<string, Group>();
  for (const r of runs) {
    const why = reasonGroup(r.reason);
    const g = by.get(why) ?? { why, count: 0, examples: [] };
    g.count++;
    if (g.examples.length < 3) g.examples.push(r.cmd.command);
    by.set(why, g);
  }
  return [...by.values()].sort((a, b) => b.count - a.count || a.why.localeCompare(b.why));
}

const quantile = (xs: readonly number[], q: number) => xs[Math.min(xs.length - 1, Math.floor(q * xs.length))] ?? 0;

export function figures(m: Measurement): Figures {
  const readsHarmless = m.reads.filter(harmless).length;
  const sampleHarmless = m.sample.filter(harmless);
  const askedHarmlessEstimate = m.sample.length ? Math.round((sampleHarmless.length / m.sample.length) * m.asked) : 0;
  return {
    total: m.total,
    reads: m.reads.length,
    readsHarmless,
    readsRefused: m.reads.filter((r) => r.verdict.refused.length > 0),
    asked: m.asked,
    sampled: m.sample.length,
    sampledHarmless: sampleHarmless.length,
    askedHarmlessEstimate,
    share: readsHarmless / (readsHarmless + askedHarmlessEstimate),
    groups: groupsOf(sampleHarmless),
    p50Ms: quantile(m.classifyMs, 0.5),
    p99Ms: quantile(m.classifyMs, 0.99),
  };
}

const pct = (x: number) => `${(100 * x).toFixed(0)}%`;
const code = (s: string) => `\`${s.replaceAll('`', "'").replaceAll('|', '\\|')}\``;

/** The "Reads in practice" section of docs/policy.md, dated `day`. */
export function policySection(f: Figures, day: string): string {
  const lines = [
    '## Reads in practice',
    '',
    `Measured ${day} by \`npm run corpus:report\` on the corpus in`,
    '`packages/tools/src/shell/classify/__fixtures__/corpus/` (its sources and licences in `SOURCES.md`):',
    `${f.total} real commands from tldr-pages and a published one-liner collection, placeholders filled with`,
    'paths of a test workspace (a git repository with planted secrets). Every command judged a read ran in',
    'the read-only sandbox under strace; so did a fixed sample of those that ask, to see which only read.',
    '',
    `- **${pct(f.share)} of the harmless commands run without asking** (goal: 90%): ${f.readsHarmless} harmless reads, and about`,
    `  ${f.askedHarmlessEstimate} harmless commands that ask (${f.sampledHarmless} of the ${f.sampled} sampled of ${f.asked} that ask only read).`,
    `- Of the ${f.reads} judged reads, none wrote outside its private \`/tmp\`, reached the network, ran another`,
    `  program or showed a secret; ${f.readsRefused.length} tried to write and the sandbox refused it${f.readsRefused.length ? ` (${f.readsRefused.slice(0, 3).map((r) => code(r.cmd.command)).join(', ')})` : ''}.`,
    `- Classification took ${f.p50Ms.toFixed(1)} ms at the median and ${f.p99Ms.toFixed(1)} ms at p99.`,
    '',
    'Why the harmless commands of the sample asked (the first reason, grouped):',
    '',
    '| count | reason | examples |',
    '|---:|---|---|',
    ...f.groups.slice(0, 15).map((g) => `| ${g.count} | ${g.why.replaceAll('|', '\\|')} | ${g.examples.map(code).join(', ')} |`),
    '',
  ];
  return lines.join('\n');
}
