import { defineTool, type Tool } from '@toolbelt/core';
import { SHELL } from './group.js';
import { z } from 'zod';
import { killJob, SIGNALS } from './job_kill.js';
import { listJobs } from './job_list.js';
import { MAX_WAIT_MS, readJob } from './job_output.js';
import type { ShellManager } from './manager.js';

// Reading, listing and stopping background commands differ only by the verb: one definition a model
// pays for instead of three.
const description = `Manage shell_background commands. output: new output of id since your last read (stdout and stderr interleaved) and whether it runs; can wait for exit or a line matching until. kill: stop id and its process group (signal, then SIGKILL after a grace period), with its unread output. list: all of this session.`;

const input = z.object({
  action: z.enum(['output', 'kill', 'list']).default('output').describe('What to do.'),
  id: z.string().min(1).optional().describe('e.g. "bg1"; not for list.'),
  wait_ms: z.number().int().min(0).max(MAX_WAIT_MS).default(0).describe('output: most ms to wait.'),
  until: z.string().optional().describe('output: regex to wait for, e.g. "ready|listening".'),
  signal: z.enum(SIGNALS).default('SIGTERM').describe('kill: first signal.'),
});
type Input = z.output<typeof input>;

function problem(i: Input): string | undefined {
  if (i.action !== 'list' && i.id === undefined)
    return `${i.action} needs the id shell_background returned, e.g. {"action":"${i.action}","id":"bg1"}; list shows them`;
  if (i.until === undefined) return undefined;
  try {
    new RegExp(i.until);
    return undefined;
  } catch (err) {
    return `until is not a valid regular expression: ${(err as Error).message}`;
  }
}

export function shellJob(manager: ShellManager): Tool {
  return defineTool({
    name: 'shell_job',
    title: 'Background commands',
    description,
    input,
    category: 'shell',
    group: SHELL,
    // Stopping a process this session started changes the world; reading its output does not.
    effect: (i: Input) => (i.action === 'kill' ? 'write' : 'read'),
    usualEffect: 'write',
    timeoutMs: MAX_WAIT_MS + 10_000,
    validate: problem,
    execute(i: Input, ctx) {
      if (i.action === 'list') return listJobs(manager, ctx);
      if (i.action === 'kill') return killJob(manager, i.id!, i.signal, ctx);
      return readJob(
        manager,
        { id: i.id!, wait_ms: i.wait_ms, ...(i.until !== undefined ? { until: i.until } : {}) },
        ctx,
      );
    },
    dispose: () => manager.dispose(),
  }) as Tool;
}
