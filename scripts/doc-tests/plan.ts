// What the doc tests do with each block, by its language and its marker. docs/architecture.md
// ("Docs that run") lists the same rules for people writing docs.
import type { DocBlock } from './blocks.js';

/** How a block that is run is run. */
export type RunKind =
  'shell' | 'console' | 'server' | 'ts' | 'ts-compile' | 'ts-gateway' | 'config' | 'json' | 'mcp-client' | 'elisp';

export type Handling = { kind: 'skip'; reason: string } | { kind: 'fail'; reason: string } | { kind: RunKind };

const SHELL = new Set(['sh', 'bash', 'shell']);
const TS = new Set(['ts', 'typescript', 'js', 'javascript']);

/** Blocks that are read, not run: the reason shows in the test run's list of skipped tests. */
const READ_ONLY: Record<string, string> = {
  text: 'text: an illustration or a sample, nothing to run',
  mermaid: 'a diagram for people; no Mermaid renderer here',
};

/** Marker actions each kind of block accepts besides `skip`. */
const ACTIONS: Record<string, Record<string, RunKind>> = {
  shell: { '': 'shell', server: 'server' },
  console: { '': 'console' },
  ts: { '': 'ts', compile: 'ts-compile', gateway: 'ts-gateway' },
  json: { '': 'config', parse: 'json', 'mcp-client': 'mcp-client' },
  elisp: { '': 'elisp' },
};

function family(lang: string): string | undefined {
  if (SHELL.has(lang)) return 'shell';
  if (TS.has(lang)) return 'ts';
  if (lang === 'console' || lang === 'json' || lang === 'elisp') return lang;
  return undefined;
}

export function handling(b: DocBlock): Handling {
  const m = b.marker;
  if (m?.action.startsWith('invalid'))
    return { kind: 'fail', reason: `unreadable marker ${m.action.slice(9)}: write <!-- doc-test: ACTION — reason -->` };
  if (!b.lang)
    return {
      kind: 'fail',
      reason: 'a fence without a language: name it (text for an illustration or output, sh, console, ts, json, ...)',
    };
  if (m?.action === 'skip')
    return m.reason
      ? { kind: 'skip', reason: m.reason }
      : { kind: 'fail', reason: 'a skip marker says why: <!-- doc-test: skip — why -->' };
  if (b.lang in READ_ONLY && !m) return { kind: 'skip', reason: READ_ONLY[b.lang] };
  const fam = family(b.lang);
  if (!fam)
    return {
      kind: 'fail',
      reason: `no doc-test rule for ${b.lang} blocks: mark it <!-- doc-test: skip — why -->, or teach scripts/doc-tests/plan.ts`,
    };
  const kind = ACTIONS[fam][m?.action ?? ''];
  if (!kind)
    return {
      kind: 'fail',
      reason: `a ${b.lang} block takes ${Object.keys(ACTIONS[fam]).filter(Boolean).concat('skip').join(', ')}, not "${m?.action}"`,
    };
  if ((kind === 'ts-compile' || kind === 'json') && !m?.reason)
    return { kind: 'fail', reason: `a ${m?.action} marker says why the block is not run` };
  if (m?.given.length && !kind.startsWith('ts')) return { kind: 'fail', reason: '(given: ...) is for TS fragments' };
  return { kind };
}
