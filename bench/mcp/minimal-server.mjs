// For attribution only: toolbelt's MCP server and executor (policy mode safe, workspace guard, JSONL
// execution log) around a three-line read tool, so the bench can tell the pipeline's cost from
// read_file's. Imports only what it uses. Usage: node minimal-server.mjs ROOT
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { defineTool, Executor, Policy, ToolRegistry } from '../../packages/core/dist/index.js';
import { WorkspaceGuard } from '../../packages/tools/dist/workspace/guard.js';
import { serveStdio, ToolServer } from '../../packages/mcp/dist/index.js';
import { JsonlLogSink } from '../../packages/cli/dist/stores.js';

const root = process.argv[2];
const read = defineTool({
  name: 'read_file',
  description: 'Reads a text file from the workspace.',
  input: z.object({ path: z.string() }),
  effect: 'read',
  execute: async ({ path }, ctx) => readFile(await ctx.workspace.resolve(path, 'read'), 'utf8'),
});
const executor = new Executor({
  registry: new ToolRegistry().register(read),
  policy: new Policy({ mode: 'safe' }),
  workspace: new WorkspaceGuard({ roots: [root] }),
  log: new JsonlLogSink(join(root, '.toolbelt', 'minimal-executions.jsonl')),
});
await serveStdio(new ToolServer({ executor }));
await executor.close();
