// A real workspace for the loop's and the framework adapters' tests: a temp dir with three files (text, a large text, a PNG), the
// file tools, the safe mode (reads run, writes ask) and an approver that records what it was asked and rejects.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Executor, MemoryLogSink, Policy, ToolRegistry, type ApprovalRequest } from '@toolbelt/core';
import { fsTools, WorkspaceGuard } from '@toolbelt/tools';

export const REJECTION = 'not that file, write to notes/draft.md';

/** A 1x1 PNG, as a file read_file returns as image content. */
export const PIXEL_PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

export interface TestWorkspace {
  dir: string;
  /** The executor's registry, to add tools to. */
  registry: ToolRegistry;
  executor: Executor;
  log: MemoryLogSink;
  asked: ApprovalRequest[];
  close(): Promise<void>;
}

export function testWorkspace(): TestWorkspace {
  const dir = mkdtempSync(join(tmpdir(), 'toolbelt-agents-'));
  writeFileSync(join(dir, 'notes.txt'), 'alpha\nbeta\n');
  writeFileSync(join(dir, 'big.txt'), 'gamma\n'.repeat(5000));
  writeFileSync(join(dir, 'pixel.png'), Buffer.from(PIXEL_PNG, 'base64'));
  const asked: ApprovalRequest[] = [];
  const log = new MemoryLogSink();
  const registry = new ToolRegistry().registerAll(fsTools());
  const executor = new Executor({
    registry,
    workspace: new WorkspaceGuard({ roots: [dir] }),
    policy: new Policy({ mode: 'safe' }),
    log,
    approver: async (request) => {
      asked.push(request);
      return { outcome: 'reject', message: REJECTION };
    },
  });
  return {
    dir,
    registry,
    executor,
    log,
    asked,
    close: async () => {
      await executor.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
