// shell_job's `output`: new output of a background command since the last read, optionally
// waiting for it to exit or print a line matching `until`.
import { ToolError, type ToolContext, type ToolOutput } from '@toolbelt/core';
import { sandboxNotes } from '../sandbox/explain.js';
import { jobStatus } from './job-status.js';
import type { LogRead, ShellManager } from './manager.js';

/** The longest a read may wait for output. */
export const MAX_WAIT_MS = 120_000;

export interface OutputArgs {
  id: string;
  wait_ms: number;
  until?: string | undefined;
}

function render(id: string, status: string, r: LogRead): string {
  const lines: string[] = [];
  if (r.dropped)
    lines.push(`[${r.dropped.toLocaleString('en-US')} bytes of older output were dropped before this read]`);
  lines.push(r.newBytes ? r.text.replace(/\n$/, '') : '(no new output)');
  lines.push(`[${id} ${status}]`);
  return lines.join('\n');
}

export async function readJob(manager: ShellManager, i: OutputArgs, ctx: ToolContext): Promise<ToolOutput> {
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
  if (ctx.signal.aborted) throw new ToolError('ABORTED', 'shell_job was cancelled while waiting');
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
}
