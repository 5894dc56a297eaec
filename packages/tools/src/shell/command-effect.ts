// The effect and preview of a call that runs a command: the command is classified once per call
// (the executor asks for the effect, then the preview, with the same input object).
import type { Classification, Preview, ToolContext } from '@toolbelt/core';
import { classifyCommand } from './classify/classify.js';
import { displayCwd, resolveCwd } from './cwd.js';
import { commandEnv, type EnvSettings } from './env.js';

interface Classified {
  cwd: string;
  classification: Classification;
}

const seen = new WeakMap<object, Promise<Classified>>();

interface CommandInput {
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
  return { ...c, effect: 'execute', reason: `execute: run with write access on request (judged ${c.reason ?? 'a read'})` };
}

export function classifyInput(input: CommandInput, ctx: ToolContext, env: EnvSettings): Promise<Classified> {
  let hit = seen.get(input);
  if (!hit) {
    hit = (async () => {
      const cwd = await resolveCwd(input.cwd, ctx);
      const ws = ctx.workspace;
      const roots = ws.roots;
      const isProtected = ws.isProtected ? (p: string, access: 'read' | 'write') => ws.isProtected!(p, access) : undefined;
      const classification = await classifyCommand(input.command, { cwd, roots, env: commandEnv(env), ...(isProtected ? { isProtected } : {}) });
      return { cwd, classification: input.write_access ? withWriteAccess(classification) : classification };
    })();
    seen.set(input, hit);
  }
  return hit;
}

export function commandEffect(env: EnvSettings) {
  return async (input: CommandInput, ctx: ToolContext): Promise<Classification> => (await classifyInput(input, ctx, env)).classification;
}

/** What the approver sees: the exact command, where it runs, and what it was judged to do. */
export function commandPreview(env: EnvSettings) {
  return async (input: CommandInput, ctx: ToolContext): Promise<Preview> => {
    const { cwd, classification } = await classifyInput(input, ctx, env);
  // Warnings travel in the approval request itself, next to the preview.
    return { kind: 'command', command: input.command, cwd: displayCwd(cwd, ctx), classification: classification.reason ?? classification.effect };
  };
}
