// Runs one shell_exec call that prints BYTES bytes, through a whole executor, in this process
// alone, and prints what it measured as JSON: the process's peak RSS, the result, the saved file.
// Loads the built packages (npm run build first), as a library user's process would.
import { existsSync, mkdtempSync, realpathSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Executor, Policy, textOf, ToolRegistry } from '@toolbelt/core';
import { shellTools } from '../../../dist/shell/index.js';
import { WorkspaceGuard } from '../../../dist/workspace/guard.js';

const bytes = Number(process.argv[2]);
const root = realpathSync(mkdtempSync(join(tmpdir(), 'tb-big-output-')));
const executor = new Executor({
  registry: new ToolRegistry().registerAll(shellTools()),
  policy: new Policy({ mode: 'yolo' }),
  workspace: new WorkspaceGuard({ roots: [root] }),
});
const before = process.resourceUsage().maxRSS;
const started = performance.now();
const r = await executor.call({ tool: 'shell_exec', input: { command: `yes | head -c ${bytes}; echo the-end` } });
const seconds = (performance.now() - started) / 1000;
const file = r.metadata?.stdoutFile;
const fileBytes = file && existsSync(file) ? statSync(file).size : undefined;
const peakMb = process.resourceUsage().maxRSS / 1024;
await executor.close();
rmSync(root, { recursive: true, force: true });
console.log(
  JSON.stringify({
    status: r.status,
    text: textOf(r),
    metadata: r.metadata,
    file,
    fileBytes,
    fileGone: file ? !existsSync(file) : undefined,
    peakMb,
    beforeMb: before / 1024,
    seconds,
  }),
);
