import { defineTool, type Tool } from '@toolbelt/core';
import { z } from 'zod';
import { jobStatus } from './job-status.js';
import type { ShellManager } from './manager.js';

const description = `Background commands of this session: id, pid, state or exit, unread output, command.`;

const input = z.object({});

export function shellList(manager: ShellManager): Tool {
  return defineTool({
    name: 'shell_list',
    title: 'List background commands',
    description,
    input,
    category: 'shell',
    effect: 'read',
    execute(_input, ctx) {
      const now = Date.now();
      const jobs = manager.list(ctx.sessionId);
      if (!jobs.length) return { content: 'No background commands have been started. Start one with shell_background.', metadata: { count: 0 } };
      const rows = jobs.map((j) => [j.id, j.group.pid ?? null, jobStatus(j, now), Math.max(0, j.log.total - j.cursor), j.command]);
      const text = rows.map(([id, pid, status, unread, command]) => `${id}  pid ${pid ?? '-'}  ${status}  ${unread} bytes unread  $ ${command}`).join('\n');
      return {
        content: text,
        display: { kind: 'table', columns: ['id', 'pid', 'status', 'unread bytes', 'command'], rows },
        metadata: { count: jobs.length, running: jobs.filter((j) => !j.exit).length },
      };
    },
    dispose: () => manager.dispose(),
  }) as Tool;
}
