// A real executor over the shell tools in a temp workspace, with an approver that records what
// it was asked and answers from a script.
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  EventBus,
  Executor,
  Policy,
  ToolRegistry,
  type ApprovalDecision,
  type ApprovalRequest,
  type Mode,
  type Rule,
} from '@toolbelt/core';
import { WorkspaceGuard } from '../../workspace/guard.js';
import { shellTools } from '../index.js';
import type { ShellSettings } from '../settings.js';

const dirs: string[] = [];

export function tempWorkspace(): string {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'tb-shell-')));
  mkdirSync(join(root, 'sub'));
  dirs.push(root);
  return root;
}

export function cleanupWorkspaces(): void {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
}

export interface Harness {
  root: string;
  executor: Executor;
  events: EventBus;
  requests: ApprovalRequest[];
  call(
    tool: string,
    input: unknown,
    extra?: { sessionId?: string; signal?: AbortSignal; timeoutMs?: number },
  ): ReturnType<Executor['call']>;
}

export interface HarnessOptions {
  mode?: Mode;
  rules?: Rule[];
  answers?: ApprovalDecision[];
  settings?: Partial<ShellSettings>;
  config?: Record<string, unknown>;
  /** For `~` in the sandbox's hidden paths (a fake HOME). */
  env?: Record<string, string | undefined>;
  /** The workspace's protected files outside the name rules. */
  protectedPaths?: string[];
}

export function harness(opts: HarnessOptions = {}): Harness {
  const root = tempWorkspace();
  const requests: ApprovalRequest[] = [];
  const answers = [...(opts.answers ?? [])];
  const events = new EventBus();
  const registry = new ToolRegistry().registerAll(
    shellTools({
      settings: { killGraceMs: 200, ...opts.settings },
      ...(opts.config ? { config: opts.config } : {}),
      ...(opts.env ? { env: opts.env } : {}),
    }),
  );
  const executor = new Executor({
    registry,
    events,
    policy: new Policy({ mode: opts.mode ?? 'safe', rules: opts.rules ?? [], roots: [root] }),
    workspace: new WorkspaceGuard({
      roots: [root],
      ...(opts.protectedPaths ? { protectedPaths: opts.protectedPaths } : {}),
    }),
    approver: async (req) => {
      requests.push(req);
      return answers.shift() ?? { outcome: 'reject', message: 'no scripted answer' };
    },
  });
  return {
    root,
    executor,
    events,
    requests,
    call: (tool, input, extra = {}) => executor.call({ tool, input, ...extra }),
  };
}
