// A call that runs a command, as one invocation: the command is classified once, and that one
// verdict is what policy decides on, what the approver sees, and what picks the sandbox profile.
import type { Classification, Invocation, ToolContext, ToolOutput } from '@toolbelt/core';
import { classifyCommand } from './classify/classify.js';
import { displayCwd, resolveCwd } from './cwd.js';
import { commandEnv, type EnvSettings } from './env.js';

/** Where a command runs and what it was judged to do. */
export interface Classified {
  cwd: string;
  classification: Classification;
}

export interface CommandInput {
  command: string;
  cwd?: string;
  /** The model asks to run a command judged a read as one that writes (after the sandbox said it needs to). */
  write_access?: boolean;
}

/**
 * A read run with write access is asked about like any command whose effect is unknown: nothing
 * says what it will write.
 */
function withWriteAccess(c: Classification): Classification {
  if (c.effect !== 'read') return c;
  return {
    ...c,
    effect: 'execute',
    reason: `execute: run with write access on request (judged ${c.reason ?? 'a read'})`,
  };
}

/** Whether commands judged reads run confined (read-only sandbox, the roots' secrets shown empty). */
export type ReadsConfined = (roots: readonly string[]) => Promise<boolean>;

async function classifyInput(
  input: CommandInput,
  ctx: ToolContext,
  env: EnvSettings,
  confined?: ReadsConfined,
): Promise<Classified> {
  const cwd = await resolveCwd(input.cwd, ctx);
  const ws = ctx.workspace;
  const roots = ws.roots;
  const isProtected = ws.isProtected ? (p: string, access: 'read' | 'write') => ws.isProtected!(p, access) : undefined;
  const readsConfined = confined ? await confined(roots) : false;
  const classification = await classifyCommand(input.command, {
    cwd,
    roots,
    env: commandEnv(env),
    ...(isProtected ? { isProtected } : {}),
    ...(readsConfined ? { readsConfined } : {}),
  });
  return { cwd, classification: input.write_access ? withWriteAccess(classification) : classification };
}

/** The invocation of a shell tool's call; `run` gets the cwd and the verdict the call was judged by. */
export async function commandInvocation(
  input: CommandInput,
  ctx: ToolContext,
  env: EnvSettings,
  run: (c: Classified) => Promise<ToolOutput>,
  confined?: ReadsConfined,
): Promise<Invocation> {
  const classified = await classifyInput(input, ctx, env, confined);
  const { cwd, classification } = classified;
  return {
    classification,
    // What the approver sees: the exact command, where it runs, and what it was judged to do.
    // Warnings travel in the approval request itself, next to the preview.
    preview: () => ({
      kind: 'command',
      command: input.command,
      cwd: displayCwd(cwd, ctx),
      classification: classification.reason ?? classification.effect,
    }),
    run: () => run(classified),
  };
}
