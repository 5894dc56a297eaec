// shell_job's `list`: the background commands of this session, one line each.
import type { ToolContext, ToolOutput } from '@toolbelt/core';
import { jobStatus } from './job-status.js';
import type { ShellManager } from './manager.js';

export function listJobs(manager: ShellManager, ctx: ToolContext): ToolOutput {
  const now = Date.now();
  const jobs = manager.list(ctx.sessionId);
  if (!jobs.length)
    return {
      content: 'No background commands have been started. Start one with shell_background.',
      metadata: { count: 0 },
    };
  const rows = jobs.map((j) => [
    j.id,
    j.group.pid ?? null,
    jobStatus(j, now),
    Math.max(0, j.log.total - j.cursor),
    j.command,
  ]);
  const text = rows
    .map(
      ([id, pid, status, unread, command]) =>
        `${id}  pid ${pid ?? '-'}  ${status}  ${unread} bytes unread  $ ${command}`,
    )
    .join('\n');
  return {
    content: text,
    display: { kind: 'table', columns: ['id', 'pid', 'status', 'unread bytes', 'command'], rows },
    metadata: { count: jobs.length, running: jobs.filter((j) => !j.exit).length },
  };
}
