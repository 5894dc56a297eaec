// Runs git tool calls from the built package in a process of its own (the tests start it as an
// unprivileged user): argv[2] is JSON { root, tools, calls }; prints each result's status as JSON.
import { Executor, Policy, ToolRegistry } from '@toolbelt/core';
import { gitTools, WorkspaceGuard } from '../../../dist/index.js';

const { root, tools, calls } = JSON.parse(process.argv[2]);
const executor = new Executor({
  registry: new ToolRegistry().registerAll(gitTools(tools)),
  policy: new Policy({ mode: 'yolo' }),
  workspace: new WorkspaceGuard({ roots: [root] }),
});
const out = [];
for (const c of calls) {
  const r = await executor.call(c);
  out.push({ tool: c.tool, status: r.status, error: r.error?.message });
}
await executor.close();
process.stdout.write(JSON.stringify(out));
