// Run by the tests as an unprivileged user (setpriv, see nobody.ts): tool calls through the built
// @toolbelt/tools behind a real executor, as toolbelt running as that user would make them.
// argv[2]: the tools package's dist directory; argv[3]: JSON { root, tools, mode?, sandbox?, lsp?,
// git?, calls } (nobody.ts: CallSpec). Prints each result's tool, status, text and approvals as JSON.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Executor, Policy, textOf, ToolRegistry } from '@toolbelt/core';

const [dist, json] = process.argv.slice(2);
const tb = await import(pathToFileURL(join(dist, 'index.js')).href);
const spec = JSON.parse(json);

const sandbox =
  spec.sandbox === 'off' ? new tb.Sandbox(tb.sandboxSettings(undefined, { overrides: { mode: 'off' } })) : undefined;
const opts = sandbox ? { sandbox } : {};
const sets = {
  git: () => tb.gitTools({ ...opts, ...spec.git }),
  shell: () => tb.shellTools(opts),
  lsp: () => tb.createLsp({ ...opts, ...(spec.lsp ? { config: spec.lsp } : {}) }).tools,
  fs: () => tb.fsTools(),
  grep: () => [tb.createGrep({ engine: 'rg' })],
};
const registry = new ToolRegistry();
for (const name of spec.tools) registry.registerAll(sets[name]());

let approvals = 0;
const executor = new Executor({
  registry,
  policy: new Policy({ mode: spec.mode ?? 'yolo', roots: [spec.root] }),
  workspace: new tb.WorkspaceGuard({ roots: [spec.root] }),
  approver: async () => {
    approvals++;
    return { outcome: 'approve', scope: 'once' };
  },
});
const out = [];
for (const call of spec.calls) {
  const before = approvals;
  const r = await executor.call(call);
  out.push({ tool: call.tool, status: r.status, text: textOf(r), approvals: approvals - before });
}
await executor.close();
process.stdout.write(JSON.stringify(out));
