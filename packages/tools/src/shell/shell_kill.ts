import { defineTool, type Tool } from '@toolbelt/core';
import { z } from 'zod';
import { jobStatus } from './job-status.js';
import type { ShellManager } from './manager.js';

const description = `Stop a shell_background command and its process group: signal, then SIGKILL after a grace period. Returns its unread output and how it ended.`;

const input = z.object({
  id: z.string().min(1).describe('e.g. "bg1".'),
  signal: z.enum(['SIGTERM', 'SIGINT', 'SIGHUP', 'SIGKILL']).default('SIGTERM').describe('First signal.'),
});
type Input = z.output<typeof input>;

export function shellKill(manager: ShellManager): Tool {
  return defineTool({
    name: 'shell_kill',
    title: 'Stop background command',
    description,
    input,
    category: 'shell',
    // It only stops a process this session started, but it does change the world.
    effect: 'write',
    async execute(i: Input, ctx) {
      const job = manager.get(i.id, ctx.sessionId);
      const wasRunning = !job.exit;
      await manager.stop(job, i.signal, 'shell_kill');
      const exit = await job.group.exited;
      const r = manager.read(job);
      const how = wasRunning ? `Stopped ${job.id}` : `${job.id} had already ended`;
      const status = job.exit ? jobStatus(job) : exit.signal ? `killed by ${exit.signal}` : `exited with code ${exit.code}`;
      const tail = r.newBytes ? `\nLast output:\n${r.text.replace(/\n$/, '')}` : '';
      return {
        content: `${how}: ${status}.${tail}`,
        metadata: { id: job.id, wasRunning, exitCode: exit.code, signal: exit.signal },
      };
    },
    dispose: () => manager.dispose(),
  }) as Tool;
}
