// Saved "always" approvals reach a fresh Policy and Executor with nothing but the store in common:
// no one calls load().
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ApprovalRequest, Approver } from '../approval.js';
import { defineTool } from '../define.js';
import { Executor } from '../executor/executor.js';
import { ToolRegistry } from '../registry.js';
import { textOf } from '../result.js';
import { Policy } from './policy.js';
import type { DecisionStore, Remembered } from './types.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

function tempFile(): string {
  const dir = mkdtempSync(join(tmpdir(), 'tb-remembered-'));
  dirs.push(dir);
  return join(dir, 'approvals.json');
}

/** A JSON file read and written asynchronously, as a library user might keep one. */
class FileStore implements DecisionStore {
  loads = 0;
  constructor(readonly file: string) {}
  async load(): Promise<Remembered[]> {
    this.loads++;
    try {
      return JSON.parse(await readFile(this.file, 'utf8')) as Remembered[];
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw new Error(`cannot read ${this.file}: ${(err as Error).message}`, { cause: err });
    }
  }
  async save(entry: Remembered): Promise<void> {
    await writeFile(this.file, JSON.stringify([...(await this.load()), entry]));
  }
}

const deploy = defineTool({
  name: 'deploy',
  description: 'Pretends to deploy.',
  effect: 'write',
  input: z.object({ env: z.string() }),
  execute: ({ env }) => `deployed ${env}`,
});

function executorOver(store: DecisionStore, approver: Approver): Executor {
  return new Executor({
    registry: new ToolRegistry().register(deploy),
    policy: new Policy({ mode: 'ask', store }),
    approver,
  });
}

function approverAnswering(scope: 'once' | 'always'): Approver & { asked: ApprovalRequest[] } {
  const asked: ApprovalRequest[] = [];
  return Object.assign(
    async (req: ApprovalRequest) => {
      asked.push(req);
      return { outcome: 'approve' as const, scope };
    },
    { asked },
  );
}

describe('saved "always" approvals', () => {
  it('are loaded by a fresh executor before its first decision, with no load() call', async () => {
    const file = tempFile();
    const first = approverAnswering('always');
    const before = await executorOver(new FileStore(file), first).call({ tool: 'deploy', input: { env: 'staging' } });
    expect(before).toMatchObject({ status: 'success', approvedBy: 'user' });
    expect(first.asked).toHaveLength(1);

    const store = new FileStore(file);
    const second = approverAnswering('once');
    const fresh = executorOver(store, second);
    const [a, b] = await Promise.all([
      fresh.call({ tool: 'deploy', input: { env: 'prod' } }),
      fresh.call({ tool: 'deploy', input: { env: 'dev' } }),
    ]);
    expect(second.asked).toEqual([]);
    expect([a.approvedBy, b.approvedBy, textOf(a)]).toEqual(['remembered', 'remembered', 'deployed prod']);
    expect((await fresh.explain({ tool: 'deploy', input: { env: 'qa' } })).decision?.source).toBe('remembered');
    // Loaded once, however many calls came in while it loaded.
    expect(store.loads).toBe(1);
  });

  it('decide at once, on the synchronous path, when the store loads synchronously', () => {
    const saved: Remembered[] = [
      { target: { kind: 'tool', tool: 'deploy' }, scope: 'always', createdAt: 0, effect: 'write' },
    ];
    const policy = new Policy({ mode: 'ask', store: { load: () => saved, save: () => {} } });
    expect(policy.ready()).toBeUndefined();
    expect(policy.decide({ tool: 'deploy', effect: 'write', input: {}, sessionId: 's' }).source).toBe('remembered');
  });

  it('that cannot be read fail the call with the reason, and are read again on the next call', async () => {
    const file = tempFile();
    writeFileSync(file, '{ not json');
    const asked = approverAnswering('once');
    const ex = executorOver(new FileStore(file), asked);
    const broken = await ex.call({ tool: 'deploy', input: { env: 'prod' } });
    expect(broken.status).toBe('error');
    expect(broken.error?.message).toMatch(
      /^deploy was not run: the saved "always" approvals could not be loaded: cannot read .*approvals\.json: /,
    );
    expect(asked.asked).toEqual([]);
    writeFileSync(
      file,
      JSON.stringify([{ target: { kind: 'tool', tool: 'deploy' }, scope: 'always', createdAt: 0, effect: 'write' }]),
    );
    expect(await ex.call({ tool: 'deploy', input: { env: 'prod' } })).toMatchObject({
      status: 'success',
      approvedBy: 'remembered',
    });
  });
});
