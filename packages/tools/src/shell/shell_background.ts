import { defineTool, ToolError, type Tool, type ToolContext, type ToolOutput } from '@toolbelt/core';
import { SHELL } from './group.js';
import { z } from 'zod';
import { commandInvocation, type Classified } from './command-invocation.js';
import { displayCwd } from './cwd.js';
import { confineCommand } from './confine.js';
import { commandEnv, gitReadEnv } from './env.js';
import type { ShellManager } from './manager.js';
import { WRITE_ACCESS_DOC } from './shell_exec.js';

const description = `Start a long command (dev server, watcher, build) in the background; returns its id. Read new output with shell_job (often, or the oldest is dropped) and stop it there; stopped when toolbelt exits. Approval as shell_exec.`;

export function shellBackground(manager: ShellManager): Tool {
  const input = z.object({
    command: z.string().min(1).describe('Bash script.'),
    cwd: z.string().optional().describe('Inside the workspace (default: its root).'),
    write_access: z.boolean().optional().describe(WRITE_ACCESS_DOC),
  });
  type Input = z.output<typeof input>;

  return defineTool({
    name: 'shell_background',
    title: 'Start background command',
    description:
      manager.sandbox.settings.mode === 'off'
        ? description
        : `${description} Sandboxed as shell_exec; its servers are reachable only with network allowed.`,
    input,
    category: 'shell',
    group: SHELL,
    validate: (i: Input) =>
      i.command.includes('\0') ? 'command contains a NUL byte, which bash cannot run; remove it' : undefined,
    usualEffect: 'execute',
    prepare: (i: Input, ctx) =>
      commandInvocation(
        i,
        ctx,
        manager.settings,
        (c) => start(manager, i.command, ctx, c),
        (roots) => manager.sandbox.confinesReads(roots),
      ),
    dispose: () => manager.dispose(),
  }) as Tool;
}

/** Starts one command in the background, confined by the sandbox profile its classification calls for. */
async function start(
  manager: ShellManager,
  command: string,
  ctx: ToolContext,
  { cwd, classification }: Classified,
): Promise<ToolOutput> {
  const env = commandEnv(manager.settings);
  const confinement = await confineCommand(manager, ctx, cwd, classification);
  const job = manager.start(
    command,
    cwd,
    classification.effect === 'read' ? gitReadEnv(env) : env,
    confinement,
    ctx.sessionId,
  );
  const where = displayCwd(cwd, ctx);
  if (job.group.pid === undefined) {
    const { error } = await job.group.exited;
    manager.forget(job);
    throw new ToolError(
      'EXECUTION_FAILED',
      `could not start bash in ${where}: ${error?.message ?? 'unknown error'}. Check that bash is installed and the directory still exists.`,
    );
  }
  return {
    content: `Started ${job.id} (pid ${job.group.pid ?? 'unknown'}) in ${where}: ${command}\nRead its output with shell_job {"id": "${job.id}"}; stop it with shell_job {"action": "kill", "id": "${job.id}"}.${confinement.notice ? `\n[note: ${confinement.notice}]` : ''}`,
    metadata: {
      id: job.id,
      pid: job.group.pid,
      cwd: where,
      sandbox: confinement.profile,
      network: confinement.network,
    },
  };
}
