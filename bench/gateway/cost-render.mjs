// Rewrites the cost section of docs/benchmarks.md from the last run's bench/results/gateway-cost.json,
// without measuring again: for a change to the section's wording. `node bench/gateway/cost-render.mjs`
import { readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { benchRoot, writeDocSection } from '../lib/harness.mjs';
import { costSection } from './cost-report.mjs';

const saved = JSON.parse(readFileSync(join(benchRoot, 'results', 'gateway-cost.json'), 'utf8'));
const runs = saved.runs.map((r) => ({ ...r, answers: new Map(Object.entries(r.answers)) }));
const { markdown, goals } = costSection({
  runs,
  stored: saved.stored,
  names: saved.names ?? [...new Set(runs.map((r) => r.subject))],
  tools: saved.tools ?? [...new Set(runs.map((r) => r.tool))],
  calls: saved.calls ?? runs[0].ok,
  rounds: saved.rounds ?? Math.max(...runs.map((r) => r.round)) + 1,
  load: saved.load,
  cores: cpus().length,
  date: saved.date.slice(0, 10),
});
writeDocSection('gateway-cost', markdown, goals);
console.log(`docs/benchmarks.md: the gateway cost section rewritten from the run of ${saved.date}`);
