import { defineTool, ToolError, type Tool } from '@toolbelt/core';
import { z } from 'zod';
import { sandboxNotes } from '../sandbox/explain.js';
import { jobStatus } from './job-status.js';
import type { LogRead, ShellManager } from './manager.js';

const MAX_WAIT_MS = 120_000;

const description = `New output of a shell_background command (stdout and stderr interleaved) since your last read, and whether it runs. Can wait for it to exit or print a line matching until.`;

const input = z.object({
  id: z.string().min(1).describe('e.g. "bg1".'),
  wait_ms: z.number().int().min(0).max(MAX_WAIT_MS).default(0).describe('Most ms to wait.'),
  until: z.string().optional().describe('Regex to wait for, e.g. "ready|listening".'),
});
type Input = z.output<typeof input>;

function render(id: string, status: string, r: LogRead): string {
  const lines: string[] = [];
  if (r.dropped) lines.push(`[${r.dropped.toLocaleString('en-US')} bytes of older output were dropped before this read]`);
  lines.push(r.newBytes ? r.text.replace(/\n$/, '') : '(no new output)');
  lines.push(`[${id} ${status}]`);
  return lines.join('\n');
}

export function shellOutput(manager: ShellManager): Tool {
  return defineTool({
    name: 'shell_output',
    title: 'Read background output',
    description,
    input,
    category: 'shell',
    effect: 'read',
    timeoutMs: MAX_WAIT_MS + 10_000,
    validate(i: Input) {
      if (i.until === undefined) return undefined;
      try {
        new RegExp(i.until);
        return undefined;
      } catch (err) {
        return `until is not a valid regular expression: ${(err as Error).message}`;
      }
    },
    async execute(i: Input, ctx) {
      const job = manager.get(i.id, ctx.sessionId);
      const pattern = i.until !== undefined ? new RegExp(i.until, 'm') : undefined;
      // Only output not yet searched is searched again (with some overlap for a line split across chunks).
      let searched = job.cursor;
      const ready = () => {
        if (!pattern) return false;
        const { data, start } = job.log.readFrom(Math.max(job.cursor, searched - 4096));
        searched = start + data.length;
        return pattern.test(data.toString('utf8'));
      };
      await manager.wait(job, i.wait_ms, ctx.signal, ready);
      if (ctx.signal.aborted) throw new ToolError('ABORTED', 'shell_output was cancelled while waiting');
      searched = job.cursor;
      const matched = pattern ? ready() : undefined;
      const r = manager.read(job);
      const status = jobStatus(job);
      const note = pattern && !matched && !job.exit ? `\n[until did not match within ${i.wait_ms} ms]` : '';
      // A job that failed by itself may have failed on the sandbox: say so with the output that shows it.
      const failed = job.exit && !job.stoppedBy && (job.exit.code !== 0 || job.exit.signal !== null);
      const notes = failed ? sandboxNotes(r.text, job.confinement) : [];
      return {
        content: [render(job.id, status, r) + note, ...notes].join('\n'),
        metadata: {
          id: job.id,
          running: !job.exit,
          exitCode: job.exit?.code ?? null,
          signal: job.exit?.signal ?? null,
          newBytes: r.newBytes,
          droppedBytes: r.dropped,
          ...(pattern ? { matched } : {}),
        },
      };
    },
    dispose: () => manager.dispose(),
  }) as Tool;
}
