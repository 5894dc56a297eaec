// A real temp workspace behind a real executor: tools run exactly as an agent's calls would.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import {
  Executor,
  Policy,
  ToolRegistry,
  textOf,
  type ApprovalRequest,
  type Approver,
  type Mode,
  type Tool,
  type ToolEvent,
  type ToolResult,
  Workspace,
} from '@toolbelt/core';
import { WorkspaceGuard } from '../../workspace/guard.js';

export interface Harness {
  root: string;
  base: string;
  executor: Executor;
  /** What the executor hands its tools: the guard, or `Workspace.none()` without one. */
  workspace: Workspace;
  events: ToolEvent[];
  approvals: ApprovalRequest[];
  call(tool: string, input: Record<string, unknown>, sessionId?: string): Promise<ToolResult>;
  text(result: ToolResult): string;
  write(rel: string, content: string | Buffer): string;
  close(): Promise<void>;
}

export function makeHarness(
  tools: Tool[],
  opts: {
    mode?: Mode;
    approver?: Approver;
    withoutWorkspace?: boolean;
    allowSensitive?: (abs: string) => boolean;
  } = {},
): Harness {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'tb-fs-')));
  const root = join(base, 'ws');
  mkdirSync(root);
  const registry = new ToolRegistry();
  registry.registerAll(tools);
  const approvals: ApprovalRequest[] = [];
  const approver: Approver =
    opts.approver ??
    (async (req) => {
      approvals.push(req);
      return { outcome: 'approve', scope: 'once' };
    });
  const executor = new Executor({
    registry,
    policy: new Policy({ mode: opts.mode ?? 'yolo' }),
    approver,
    ...(opts.withoutWorkspace
      ? {}
      : {
          workspace: new WorkspaceGuard({
            roots: [root],
            ...(opts.allowSensitive ? { allowSensitive: opts.allowSensitive } : {}),
          }),
        }),
  });
  const events: ToolEvent[] = [];
  executor.events.on((e) => events.push(e));
  return {
    root,
    base,
    executor,
    workspace: executor.workspace ?? Workspace.none(),
    events,
    approvals,
    call: (tool, input, sessionId) => executor.call({ tool, input, ...(sessionId ? { sessionId } : {}) }),
    text: (r) => textOf(r),
    write(rel, content) {
      const p = join(root, rel);
      mkdirSync(dirname(p), { recursive: true });
      writeFileSync(p, content);
      return p;
    },
    async close() {
      await executor.close();
      rmSync(base, { recursive: true, force: true });
    },
  };
}
