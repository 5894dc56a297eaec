// A relative path missing under the working directory is looked up from the workspace root.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Executor, Policy, textOf, ToolRegistry } from '@toolbelt/core';
import { WorkspaceGuard } from '../workspace/guard.js';
import { readFile } from './read_file.js';

const root = realpathSync(mkdtempSync(join(tmpdir(), 'locate-')));
mkdirSync(join(root, 'pkg', 'docs'), { recursive: true });
mkdirSync(join(root, 'docs'));
writeFileSync(join(root, 'docs', 'guide.md'), 'from the root\n');
writeFileSync(join(root, 'pkg', 'docs', 'own.md'), 'from the working directory\n');
writeFileSync(join(root, 'docs', 'own.md'), 'the root copy\n');
afterAll(() => rmSync(root, { recursive: true, force: true }));

const executor = new Executor({
  registry: new ToolRegistry().register(readFile),
  policy: new Policy({ mode: 'yolo' }),
  workspace: new WorkspaceGuard({ roots: [root], cwd: 'pkg' }),
});

describe('read_file from the workspace root', () => {
  it('reads a relative path from the root when the working directory has no such file, and says so', async () => {
    const r = await executor.call({ tool: 'read_file', input: { path: 'docs/guide.md' } });
    expect(textOf(r).split('\n').slice(0, 2)).toEqual([
      '(docs/guide.md is not under the working directory pkg; read docs/guide.md from the workspace root)',
      '1\tfrom the root',
    ]);
    expect(r.metadata).toMatchObject({ path: 'docs/guide.md', foundFromRoot: true });
  });

  it('reads the working directory’s file when there is one (control)', async () => {
    const r = await executor.call({ tool: 'read_file', input: { path: 'docs/own.md' } });
    expect(textOf(r)).toBe('1\tfrom the working directory');
    expect(r.metadata?.foundFromRoot).toBeUndefined();
  });

  it('says the file is missing, under the working directory, when neither has it', async () => {
    const r = await executor.call({ tool: 'read_file', input: { path: 'docs/none.md' } });
    expect(r.error?.code).toBe('NOT_FOUND');
    expect(r.error?.message).toContain('pkg/docs/none.md');
  });
});
