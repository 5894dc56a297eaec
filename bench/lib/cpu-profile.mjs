// Where a process's CPU goes, from a V8 profile (node --cpu-prof): self time summed per script
// (a bundle chunk, a node: module, a package's file) and V8's own buckets (GC, compiling, idle).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The package a source map's source belongs to: an npm package, or a toolbelt package by its src folder. */
function packageOf(source) {
  const npm = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(source);
  if (npm) return npm[1];
  const ours = /(?:^|\/)(?:packages\/)?([^/.]+)\/src\//.exec(source);
  return ours ? `@toolbelt/${ours[1]}` : source;
}

/**
 * A bundle chunk's name with the packages that make up most of it (from its source map, by source
 * size): "chunk-X.js (zod)". A chunk's hash name alone says nothing.
 */
function chunkLabel(url) {
  const file = url.startsWith('file:') ? fileURLToPath(url) : url;
  if (!existsSync(`${file}.map`)) return basename(file);
  const map = JSON.parse(readFileSync(`${file}.map`, 'utf8'));
  const size = new Map();
  map.sources.forEach((src, i) => {
    const pkg = packageOf(src);
    size.set(pkg, (size.get(pkg) ?? 0) + (map.sourcesContent?.[i]?.length ?? 0));
  });
  const total = [...size.values()].reduce((a, b) => a + b, 0) || 1;
  const top = [...size.entries()]
    .sort((a, b) => b[1] - a[1])
    .filter(([, n]) => n / total >= 0.15)
    .slice(0, 3)
    .map(([pkg]) => pkg);
  return top.length ? `${basename(file)} (${top.join(', ')})` : basename(file);
}

function owner(url) {
  if (!url) return null;
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1];
  if (url.startsWith('node:')) return 'node internals (module loading, streams)';
  if (/\/bundle\/[^/]+\.js$/.test(url)) return chunkLabel(url);
  return basename(url);
}

/** The first *.cpuprofile in `dir`, summed: { totalMs, top: [{ what, ms, share }] } (idle left out). */
export function summarizeProfile(dir, topN = 6) {
  const name = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
  if (!name) return undefined;
  const prof = JSON.parse(readFileSync(join(dir, name), 'utf8'));
  const byId = new Map(prof.nodes.map((n) => [n.id, n]));
  const self = new Map();
  for (let i = 0; i < prof.samples.length; i++) {
    const frame = byId.get(prof.samples[i]).callFrame;
    const what = owner(frame.url) ?? frame.functionName ?? '(unknown)';
    self.set(what, (self.get(what) ?? 0) + (prof.timeDeltas[i] ?? 0) / 1000);
  }
  self.delete('(idle)');
  const totalMs = [...self.values()].reduce((a, b) => a + b, 0);
  const top = [...self.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, topN)
    .map(([what, ms]) => ({ what, ms, share: ms / totalMs }));
  return { totalMs, top };
}

/** The summary as one line: "main-X.js 120 ms (40%), (garbage collector) 20 ms (7%), ...". */
export function profileLine(summary) {
  if (!summary) return 'no profile written';
  return summary.top.map((t) => `${t.what} ${t.ms.toFixed(0)} ms (${(t.share * 100).toFixed(0)}%)`).join(', ');
}
