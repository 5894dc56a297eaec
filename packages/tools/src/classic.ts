// The built-in tools in the classic shape (@toolbelt/core/classic): `registry.registerAll(createBuiltinTools())`.
// Each is a face over the built-in itself; a direct execute() runs through an executor over a
// workspace at the process's directory (or the call's cwd), where the caller has confirmed the call.
import { ToolRegistry as ContractRegistry } from '@toolbelt/core';
import { classicFace, Executor, Policy, type Tool, type ToolExecutionOptions } from '@toolbelt/core/classic';
import { builtinTools, type BuiltinOptions } from './builtin.js';
import { WorkspaceGuard } from './workspace/guard.js';

export interface ClassicBuiltinOptions extends BuiltinOptions {
  /** What direct calls may touch; default the process's directory (or `cwd`). */
  roots?: string[];
  /** Where relative paths start; default the first root. */
  cwd?: string;
}

export function createBuiltinTools(opts: ClassicBuiltinOptions = {}): Tool<any>[] {
  const tools = builtinTools(opts);
  const registry = new ContractRegistry().registerAll(tools);
  const executors = new Map<string, Executor>();
  let base: WorkspaceGuard | undefined;
  const runner = (call: ToolExecutionOptions): Executor => {
    base ??= new WorkspaceGuard({
      roots: opts.roots ?? [opts.cwd ?? process.cwd()],
      ...(opts.cwd ? { cwd: opts.cwd } : {}),
    });
    const key = call.cwd ?? '';
    let executor = executors.get(key);
    if (!executor) {
      executor = new Executor({
        registry,
        policy: new Policy({ mode: 'all' }),
        workspace: call.cwd ? workspaceAt(base, call.cwd) : base,
      });
      executors.set(key, executor);
    }
    return executor;
  };
  return tools.map((t) => classicFace(t, runner));
}

/** A call's cwd inside the roots moves the cwd; one outside them is a workspace of its own. */
function workspaceAt(base: WorkspaceGuard, cwd: string): WorkspaceGuard {
  try {
    return base.withCwd(cwd);
  } catch {
    return new WorkspaceGuard({ roots: [cwd] });
  }
}
