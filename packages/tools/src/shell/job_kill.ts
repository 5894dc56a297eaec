// shell_job's `kill`: stop a background command and its process group, with its unread output.
import type { ToolContext, ToolOutput } from '@toolbelt/core';
import { jobStatus } from './job-status.js';
import type { ShellManager } from './manager.js';

export const SIGNALS = ['SIGTERM', 'SIGINT', 'SIGHUP', 'SIGKILL'] as const;
export type StopSignal = (typeof SIGNALS)[number];

export async function killJob(
  manager: ShellManager,
  id: string,
  signal: StopSignal,
  ctx: ToolContext,
): Promise<ToolOutput> {
  const job = manager.get(id, ctx.sessionId);
  const wasRunning = !job.exit;
  await manager.stop(job, signal, 'shell_job');
  const exit = await job.group.exited;
  const r = manager.read(job);
  const how = wasRunning ? `Stopped ${job.id}` : `${job.id} had already ended`;
  const status = job.exit ? jobStatus(job) : exit.signal ? `killed by ${exit.signal}` : `exited with code ${exit.code}`;
  const tail = r.newBytes ? `\nLast output:\n${r.text.replace(/\n$/, '')}` : '';
  return {
    content: `${how}: ${status}.${tail}`,
    metadata: { id: job.id, wasRunning, exitCode: exit.code, signal: exit.signal },
  };
}
