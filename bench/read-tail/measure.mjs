// One measurement in a fresh process (so peak RSS belongs to this read alone):
// `node measure.mjs toolbelt|toolbelt-all|naive FILE EXPECTED_LAST_LINE_NUMBER`, prints JSON.
// toolbelt imports the file tools alone; toolbelt-all imports the whole @toolbelt/tools package
// (every family: shell, lsp, web, ...), as `builtinTools()` users do.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { Executor, Policy, ToolRegistry, textOf } from '../../packages/core/dist/index.js';

const [mode, file, expectedLast] = process.argv.slice(2);
const { fsTools } = await import(
  mode === 'toolbelt-all' ? '../../packages/tools/dist/index.js' : '../../packages/tools/dist/fs/index.js'
);
const { WorkspaceGuard } = await import(
  mode === 'toolbelt-all' ? '../../packages/tools/dist/index.js' : '../../packages/tools/dist/workspace/guard.js'
);
globalThis.gc?.();
const before = process.memoryUsage();
const t0 = performance.now();
let lines;
if (mode !== 'naive') {
  const registry = new ToolRegistry();
  registry.registerAll(fsTools());
  const executor = new Executor({
    registry,
    policy: new Policy({ mode: 'safe' }),
    workspace: new WorkspaceGuard({ roots: [dirname(file)] }),
  });
  const result = await executor.call({ tool: 'read_file', input: { path: file, offset: -100 } });
  if (result.status !== 'success') throw new Error(textOf(result));
  lines = textOf(result).split('\n');
} else {
  // The simple way: the whole file in memory, then the last lines from its end.
  const buf = readFileSync(file);
  let end = buf.length - 1;
  let n = 0;
  let pos = end;
  while (n < 100 && pos > 0) {
    pos = buf.lastIndexOf(10, pos - 1);
    n++;
  }
  lines = buf
    .subarray(pos + 1, end)
    .toString('utf8')
    .split('\n');
}
const ms = performance.now() - t0;
const after = process.memoryUsage();
const usage = process.resourceUsage();
const last = lines[lines.length - 1];
if (lines.length !== 100) throw new Error(`expected 100 lines, got ${lines.length}`);
if (mode !== 'naive' && !last.startsWith(`${String(expectedLast).padStart(6)}\t`))
  throw new Error(`last line is numbered wrong: ${last.slice(0, 40)}`);
if (!last.includes('tail line 100')) throw new Error(`last line is not the file's last line: ${last.slice(0, 80)}`);
console.log(
  JSON.stringify({
    mode,
    ms,
    maxRssMb: usage.maxRSS / 1024,
    rssBeforeMb: before.rss / 2 ** 20,
    heapUsedMb: after.heapUsed / 2 ** 20,
    externalMb: after.external / 2 ** 20,
    // What was read, line numbers aside: every subject must have read the same 100 lines.
    answer: createHash('sha256')
      .update(lines.map((l) => (mode === 'naive' ? l : l.replace(/^ *\d+\t/, ''))).join('\n'))
      .digest('hex'),
  }),
);
