import { defineTool, ToolError, type Tool, type ToolContext, type ToolOutput } from '@toolbelt/core';
import { z } from 'zod';
import { runCommand } from '../process/run.js';
import { commandInvocation, type Classified } from './command-invocation.js';
import { confineCommand, confinementNotes } from './confine.js';
import { displayCwd } from './cwd.js';
import { commandEnv, gitReadEnv } from './env.js';
import { formatRun, runMetadata } from './format.js';
import type { ShellManager } from './manager.js';

/** What the sandbox means for a command, in the descriptions of shell_exec and shell_background. */
export const SANDBOX_LINE = `- Runs sandboxed where the machine allows: it may write only inside the workspace and its own /tmp (empty for each command), has no network unless the config allows it, and does not see secrets (~/.ssh, ~/.aws, ...). A command judged a read runs with everything read-only. When a result says the sandbox blocked something, ask the user instead of retrying.`;

export const WRITE_ACCESS_DOC =
  'Set true only after a result said this command needs write access: it then runs as a command that writes, and may need approval.';

function description(max: number, def: number, bytes: number, saved: boolean, sandboxed: boolean): string {
  return `Run a bash command and wait for it to finish. Returns stdout, then stderr (after a "[stderr]" line), then "[exit code N]".
- Runs in the workspace directory unless cwd is given; stdin is empty, so a command that prompts fails instead of waiting. Use non-interactive flags (-y, --yes, --no-pager).
- Stopped after timeout_ms (default ${def}, at most ${max}): the whole process group is killed and the partial output returned.
- Output over ${bytes} bytes per stream keeps the start and the end, with the total size stated${saved ? '; the whole of it is saved to a temp file the result names' : ''}. Filter noisy output (| tail, | grep) rather than paging.
- Anything the command leaves running in the background is stopped when it exits. For servers, watchers and other long runs use shell_background.
- Commands are checked before they run: reads may run at once; writes, deletions and anything unknown may need approval; catastrophic commands are refused.
- Prefer the dedicated tools for files (read_file, write_file, edit_file, grep, glob) and git when they exist.${sandboxed ? `\n${SANDBOX_LINE}` : ''}`;
}

export function shellExec(manager: ShellManager): Tool {
  const s = manager.settings;
  const input = z.object({
    command: z.string().min(1).describe('The bash script to run, e.g. "npm test -- --run" or "ls -la src && git status".'),
    cwd: z
      .string()
      .optional()
      .describe('Directory to run in, relative to the workspace root or absolute inside the workspace. Default: the workspace directory.'),
    timeout_ms: z
      .number()
      .int()
      .min(1)
      .max(s.maxTimeoutMs)
      .optional()
      .describe(`Stop the command after this many milliseconds. Default ${s.defaultTimeoutMs}, at most ${s.maxTimeoutMs}.`),
    write_access: z.boolean().optional().describe(WRITE_ACCESS_DOC),
  });
  type Input = z.output<typeof input>;

  return defineTool({
    name: 'shell_exec',
    title: 'Run shell command',
    description: description(s.maxTimeoutMs, s.defaultTimeoutMs, s.maxOutputBytes, s.maxOutputFileBytes > 0, manager.sandbox.settings.mode !== 'off'),
    input,
    category: 'shell',
    // Our own timeout (with its partial output) must fire before the executor's deadline.
    timeoutMs: s.maxTimeoutMs + s.killGraceMs + 5_000,
    validate: (i: Input) => (i.command.includes('\0') ? 'command contains a NUL byte, which bash cannot run; remove it' : undefined),
    usualEffect: 'execute',
    prepare: (i: Input, ctx) => commandInvocation(i, ctx, s, (c) => run(manager, i, ctx, c)),
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
  if (r.aborted) throw new ToolError('ABORTED', `shell_exec was cancelled; the process group was stopped.\n${r.stdout.text}${r.stderr.text}`);
  const text = [formatRun(r, { timeoutMs, maxTimeoutMs: s.maxTimeoutMs, killGraceMs: s.killGraceMs }), ...confinementNotes(r, confinement)].join('\n');
  // A command stopped by its timeout did not finish: an error, with what it printed so far.
  if (r.timedOut) throw new ToolError('TIMEOUT', text);
  return {
    content: text,
    metadata: { ...runMetadata(r, displayCwd(cwd, ctx)), sandbox: confinement.profile, network: confinement.network },
  };
}
