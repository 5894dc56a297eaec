// How one shell command is confined: a command judged a read gets the read-only profile (nothing
// writable, no network), anything else the workspace profile, with the network only where the
// config allows it for every part of the script. shell.limits win over sandbox.limits.
import type { Classification, ToolContext } from '@toolbelt/core';
import type { Confinement } from '../sandbox/sandbox.js';
import { sandboxNotes } from '../sandbox/explain.js';
import type { RunResult } from '../process/run.js';
import type { ShellManager } from './manager.js';

export function confineCommand(
  manager: ShellManager,
  ctx: ToolContext,
  cwd: string,
  classification: Classification,
): Promise<Confinement> {
  const ws = ctx.workspace;
  const sandbox = manager.sandbox;
  const limits =
    sandbox.limits || manager.settings.limits ? { ...sandbox.limits, ...manager.settings.limits } : undefined;
  return sandbox.confine(
    {
      roots: ws.roots,
      cwd,
      ...(ws.protectedPaths ? { protectedPaths: ws.protectedPaths } : {}),
      readOnly: classification.effect === 'read',
      network: sandbox.networkFor(classification.subject?.commands),
    },
    limits,
  );
}

/** The lines appended to a finished command's result: why it may have failed, and the sandbox's one notice. */
export function confinementNotes(r: RunResult, c: Confinement): string[] {
  const failed = r.exitCode !== 0 || r.signal !== null;
  const notes = failed ? sandboxNotes(`${r.stdout.text}\n${r.stderr.text}`, c) : [];
  if (c.notice) notes.push(`[note: ${c.notice}]`);
  notes.push(...(c.warnings ?? []));
  return notes;
}
