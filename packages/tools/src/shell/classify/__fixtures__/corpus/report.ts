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
  /** Of the harmless asked in the sample, those whose ask the command's words do not justify. */
  sampledFalse: number;
  falseEstimate: number;
  /** readsHarmless / (readsHarmless + falseEstimate): the goal's measure. */
  share: number;
  /** readsHarmless / (readsHarmless + askedHarmlessEstimate): every run that only read counted. */
  shareAll: number;
  groups: Group[];
  p50Ms: number;
  p99Ms: number;
  steadyP50Ms: number;
  steadyP99Ms: number;
  load: number;
  cores: number;
}

/** The first reason's words, without the command they were said about: what groups asks. */
export function reasonGroup(reason: string): string {
  const effect = /^(\w+): /.exec(reason)?.[1] ?? 'execute';
  const first = reason.replace(/^\w+: /, '').split('; ')[0];
  const why = /\(([^()]*(?:\([^()]*\)[^()]*)*)\)\s*$/.exec(first)?.[1];
  // A reason that only names the command: the command is not on the read-only list.
  if (!why) return `${effect}: not a read-only command by name`;
  return why
    .replace(/\/\S+/g, 'PATH')
    .replace(/\b\d+\b/g, 'N')
    .replace(/["'`][^"'`]*["'`]/g, '…')
    .slice(0, 100);
}

// Asks a command's own words justify: it writes, deletes, extracts or reaches outside; that it did
// nothing here (its target was missing, or it only failed) does not make the ask a false one.
const JUSTIFIED =
  /^(write|destructive):|outside the workspace|writes|deletes|extracts|publishes|stops|truncates|creates|removes|other hosts|network|sets the clock|changes git|evaluates a computed|runs the commands in/;

/** An ask the command's words justify, though the run only read. */
export function justifiedAsk(r: Ran): boolean {
  return JUSTIFIED.test(r.reason.split('; ')[0]) || JUSTIFIED.test(reasonGroup(r.reason));
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
  const scale = (n: number) => (m.sample.length ? Math.round((n / m.sample.length) * m.asked) : 0);
  const askedHarmlessEstimate = scale(sampleHarmless.length);
  const falseAsks = sampleHarmless.filter((r) => !justifiedAsk(r));
  const falseEstimate = scale(falseAsks.length);
  return {
    total: m.total,
    reads: m.reads.length,
    readsHarmless,
    readsRefused: m.reads.filter((r) => r.verdict.refused.length > 0),
    asked: m.asked,
    sampled: m.sample.length,
    sampledHarmless: sampleHarmless.length,
    askedHarmlessEstimate,
    sampledFalse: falseAsks.length,
    falseEstimate,
    share: readsHarmless / (readsHarmless + falseEstimate),
    shareAll: readsHarmless / (readsHarmless + askedHarmlessEstimate),
    groups: groupsOf(falseAsks),
    p50Ms: quantile(m.classifyMs, 0.5),
    p99Ms: quantile(m.classifyMs, 0.99),
    steadyP50Ms: quantile(m.steadyMs, 0.5),
    steadyP99Ms: quantile(m.steadyMs, 0.99),
    load: m.load,
    cores: m.cores,
  };
}

/** One decimal, rounded down: a share just under a goal never reads as meeting it. */
const pct = (x: number) => `${(Math.floor(1000 * x) / 10).toFixed(1)}%`;
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
    "The same reads also run as an unprivileged user (nobody, uid 65534, in the built package's sandbox;",
    '`corpus-unprivileged.test.ts`), with the same checks.',
    '',
    `- **${pct(f.share)} of the harmless commands run without asking** (goal: 90%): ${f.readsHarmless} harmless reads, and about`,
    `  ${f.falseEstimate} likely false asks. Of the ${f.sampled} commands run of the ${f.asked} that ask, ${f.sampledHarmless} only read; setting aside`,
    `  those whose ask their own words justify (writers, deleters, extractors, paths outside, the network: they did`,
    `  nothing here only because a target was missing or the sandbox refused), ${f.sampledFalse} are likely false asks.`,
    `  Counting every run that only read, the share is ${pct(f.shareAll)}.`,
    `- Of the ${f.reads} judged reads, none wrote outside its private \`/tmp\`, reached the network, ran another`,
    `  program or showed a secret; ${f.readsRefused.length} tried to write and the sandbox refused it${
      f.readsRefused.length
        ? ` (${f.readsRefused
            .slice(0, 3)
            .map((r) => code(r.cmd.command))
            .join(', ')})`
        : ''
    }.`,
    `- Classification took ${f.p50Ms.toFixed(1)} ms at the median and ${f.p99Ms.toFixed(1)} ms at p99 (goal: 5 ms), each`,
    `  command's first classification (a repository's history check, once per state of its refs, included);`,
    `  counting each command's median of three classifications in a row, ${f.steadyP50Ms.toFixed(1)} ms and ${f.steadyP99Ms.toFixed(1)} ms.`,
    `  Measured on ${f.cores} cores at a load average of ${f.load.toFixed(1)}: a busy machine's pauses fall on any command.`,
    '',
    'Why the likely false asks asked (the first reason, grouped; "not a read-only command by name" is a command',
    'not on the allow-list):',
    '',
    '| count | reason | examples |',
    '|---:|---|---|',
    ...f.groups
      .slice(0, 15)
      .map((g) => `| ${g.count} | ${g.why.replaceAll('|', '\\|')} | ${g.examples.map(code).join(', ')} |`),
    '',
  ];
  return lines.join('\n');
}
