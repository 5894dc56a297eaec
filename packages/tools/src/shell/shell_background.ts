import { defineTool, ToolError, type Tool, type ToolContext, type ToolOutput } from '@toolbelt/core';
import { z } from 'zod';
import { commandInvocation, type Classified } from './command-invocation.js';
import { displayCwd } from './cwd.js';
import { confineCommand } from './confine.js';
import { commandEnv, gitReadEnv } from './env.js';
import type { ShellManager } from './manager.js';
import { SANDBOX_LINE, WRITE_ACCESS_DOC } from './shell_exec.js';

const description = `Start a long-running bash command (dev server, watcher, long build) in the background and return its id at once.
- Read what it printed since your last read with shell_output (stdout and stderr interleaved); see all with shell_list; stop it with shell_kill.
- Its output is kept in a bounded log: read it now and then, or the oldest part is dropped.
- It runs until it exits or you stop it; toolbelt kills it when it shuts down. Runs in the workspace directory unless cwd is given; stdin is empty.
- Commands are checked like shell_exec's: writes and unknown commands may need approval.`;

export function shellBackground(manager: ShellManager): Tool {
  const input = z.object({
    command: z.string().min(1).describe('The bash script to start, e.g. "npm run dev".'),
    cwd: z
      .string()
      .optional()
      .describe('Directory to run in, relative to the workspace root or absolute inside the workspace. Default: the workspace directory.'),
    write_access: z.boolean().optional().describe(WRITE_ACCESS_DOC),
  });
  type Input = z.output<typeof input>;

  return defineTool({
    name: 'shell_background',
    title: 'Start background command',
    description:
      manager.sandbox.settings.mode === 'off'
        ? description
        : `${description}\n${SANDBOX_LINE} Its servers are reachable from other commands only when the config allows them the network.`,
    input,
    category: 'shell',
    validate: (i: Input) => (i.command.includes('\0') ? 'command contains a NUL byte, which bash cannot run; remove it' : undefined),
    usualEffect: 'execute',
    prepare: (i: Input, ctx) => commandInvocation(i, ctx, manager.settings, (c) => start(manager, i.command, ctx, c)),
    dispose: () => manager.dispose(),
  }) as Tool;
}

/** Starts one command in the background, confined by the sandbox profile its classification calls for. */
async function start(manager: ShellManager, command: string, ctx: ToolContext, { cwd, classification }: Classified): Promise<ToolOutput> {
  const env = commandEnv(manager.settings);
  const confinement = await confineCommand(manager, ctx, cwd, classification);
  const job = manager.start(command, cwd, classification.effect === 'read' ? gitReadEnv(env) : env, confinement, ctx.sessionId);
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
    content: `Started ${job.id} (pid ${job.group.pid ?? 'unknown'}) in ${where}: ${command}\nRead its output with shell_output {"id": "${job.id}"}; stop it with shell_kill {"id": "${job.id}"}.${confinement.notice ? `\n[note: ${confinement.notice}]` : ''}`,
    metadata: { id: job.id, pid: job.group.pid, cwd: where, sandbox: confinement.profile, network: confinement.network },
  };
}
