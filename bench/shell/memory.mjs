// A command that writes 1 GB to stdout, run through the whole executor with a listener on the
// streamed output: prints this process's peak RSS as JSON. Run alone, so the figure is its own.
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EventBus, Executor, Policy, ToolRegistry, textOf } from '../../packages/core/dist/index.js';
import { shellTools } from '../../packages/tools/dist/shell/index.js';
import { WorkspaceGuard } from '../../packages/tools/dist/workspace/guard.js';

const bytes = Number(process.env.BENCH_BYTES ?? 1024 ** 3);
const root = realpathSync(mkdtempSync(join(tmpdir(), 'tb-bench-mem-')));
const events = new EventBus();
let streamed = 0;
events.onType('tool.output', (e) => (streamed += e.chunk.length));
const executor = new Executor({
  registry: new ToolRegistry().registerAll(shellTools()),
  events,
  policy: new Policy({ mode: 'yolo' }),
  workspace: new WorkspaceGuard({ roots: [root] }),
});

globalThis.gc?.();
const baseline = process.memoryUsage().rss;
let peak = baseline;
const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
const t0 = performance.now();
const r = await executor.call({
  tool: 'shell_exec',
  input: { command: `yes 0123456789abcdef | head -c ${bytes}; echo; echo the-end` },
});
const seconds = (performance.now() - t0) / 1000;
clearInterval(timer);
peak = Math.max(peak, process.memoryUsage().rss);
const text = textOf(r);
await executor.close();
rmSync(root, { recursive: true, force: true });
console.log(
  JSON.stringify({
    bytes,
    stdoutBytes: r.metadata?.stdoutBytes,
    streamed,
    baselineRssMb: baseline / 2 ** 20,
    peakRssMb: peak / 2 ** 20,
    seconds,
    head: text.slice(0, 34),
    tail: text.slice(-30),
    resultChars: text.length,
  }),
);
