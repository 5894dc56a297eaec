import { defineTool, ToolError, type Tool, type ToolContext, type ToolOutput } from '@toolbelt/core';
import { SHELL } from './group.js';
import { z } from 'zod';
import { runCommand } from '../process/run.js';
import { reportChanges } from '../workspace/report-changes.js';
import { commandInvocation, type Classified } from './command-invocation.js';
import { confineCommand, confinementNotes } from './confine.js';
import { displayCwd } from './cwd.js';
import { commandEnv, gitReadEnv } from './env.js';
import { formatRun, runMetadata } from './format.js';
import type { ShellManager } from './manager.js';

/** What the sandbox means for a command, in the descriptions of shell_exec and shell_background. */
const SANDBOX_LINE = `Sandboxed: writes only in the workspace and a private /tmp, no network unless configured, no secrets (~/.ssh, ...). If the sandbox blocked something, ask the user; don't retry.`;

export const WRITE_ACCESS_DOC = 'Only when a result asked for write access.';

function description(max: number, def: number, bytes: number, saved: boolean, sandboxed: boolean): string {
  return `Run a bash command and wait: returns stdout, "[stderr]" and stderr, "[exit code N]". stdin is empty: use -y, --no-pager. Killed with its process group after timeout_ms (default ${def}, max ${max}). Output over ${bytes} bytes a stream keeps start and end${saved ? ', the whole saved to a named file' : ''}; filter with | tail or | grep. Needs approval for writes and unknown commands. For servers and watchers use shell_background; for files, grep, glob and git the dedicated tools.${sandboxed ? ` ${SANDBOX_LINE}` : ''}`;
}

export function shellExec(manager: ShellManager): Tool {
  const s = manager.settings;
  const input = z.object({
    command: z.string().min(1).describe('Bash script.'),
    cwd: z.string().optional().describe('Inside the workspace (default: its root).'),
    timeout_ms: z.number().int().min(1).max(s.maxTimeoutMs).optional().describe('Time limit.'),
    write_access: z.boolean().optional().describe(WRITE_ACCESS_DOC),
  });
  type Input = z.output<typeof input>;

  return defineTool({
    name: 'shell_exec',
    title: 'Run shell command',
    description: description(
      s.maxTimeoutMs,
      s.defaultTimeoutMs,
      s.maxOutputBytes,
      s.maxOutputFileBytes > 0,
      manager.sandbox.settings.mode !== 'off',
    ),
    input,
    category: 'shell',
    group: SHELL,
    // Our own timeout (with its partial output) must fire before the executor's deadline.
    timeoutMs: s.maxTimeoutMs + s.killGraceMs + 5_000,
    validate: (i: Input) =>
      i.command.includes('\0') ? 'command contains a NUL byte, which bash cannot run; remove it' : undefined,
    usualEffect: 'execute',
    prepare: (i: Input, ctx) =>
      commandInvocation(
        i,
        ctx,
        s,
        (c) => run(manager, i, ctx, c),
        (roots) => manager.sandbox.confinesReads(roots),
      ),
    dispose: () => manager.dispose(),
  }) as Tool;
}

/** Runs one command, confined by the sandbox profile its classification calls for. */
async function run(
  manager: ShellManager,
  i: { command: string; timeout_ms?: number },
  ctx: ToolContext,
  { cwd, classification }: Classified,
): Promise<ToolOutput> {
  const s = manager.settings;
  if (manager.disposed) throw new ToolError('ABORTED', 'the shell tools have been shut down; no new commands are run');
  const timeoutMs = i.timeout_ms ?? s.defaultTimeoutMs;
  const confinement = await confineCommand(manager, ctx, cwd, classification);
  // Stopped by the caller or by dispose(), whichever comes first.
  const stop = new AbortController();
  const onStop = () => stop.abort();
  ctx.signal.addEventListener('abort', onStop, { once: true });
  manager.disposeSignal.addEventListener('abort', onStop, { once: true });
  if (ctx.signal.aborted || manager.disposed) stop.abort();
  const r = await runCommand({
    script: i.command,
    cwd,
    // A read runs with git's program-running settings switched off, in case the check missed one.
    env: classification.effect === 'read' ? gitReadEnv(commandEnv(s)) : commandEnv(s),
    ...(confinement.limits ? { limits: confinement.limits } : {}),
    wrap: confinement.wrap,
    timeoutMs,
    signal: stop.signal,
    maxBytes: s.maxOutputBytes,
    ...(manager.outputFiles.target ? { spill: manager.outputFiles.target } : {}),
    killGraceMs: s.killGraceMs,
    onOutput: (stream, chunk) => ctx.emit({ type: 'output', stream, chunk }),
  }).finally(() => {
    ctx.signal.removeEventListener('abort', onStop);
    manager.disposeSignal.removeEventListener('abort', onStop);
  });
  if (r.spawnError) {
    throw new ToolError(
      'EXECUTION_FAILED',
      `could not start bash in ${displayCwd(cwd, ctx)}: ${r.spawnError.message}. Check that bash is installed and the directory still exists.`,
    );
  }
  // What the command was judged to write or delete, as it is now (also after a failure or a timeout).
  reportChanges(ctx, classification.subject?.paths ?? []);
  if (r.aborted)
    throw new ToolError(
      'ABORTED',
      `shell_exec was cancelled; the process group was stopped.\n${r.stdout.text}${r.stderr.text}`,
    );
  const text = [
    formatRun(r, { timeoutMs, maxTimeoutMs: s.maxTimeoutMs, killGraceMs: s.killGraceMs }),
    ...confinementNotes(r, confinement),
  ].join('\n');
  // A command stopped by its timeout did not finish: an error, with what it printed so far.
  if (r.timedOut) throw new ToolError('TIMEOUT', text);
  return {
    content: text,
    metadata: { ...runMetadata(r, displayCwd(cwd, ctx)), sandbox: confinement.profile, network: confinement.network },
  };
}
