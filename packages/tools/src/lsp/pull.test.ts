// Asked-for diagnostics are the ones the server would have published: on the real
// typescript-language-server, for files with a type error, a syntax error, several errors in
// one file and none, the pulled list (tsserver's, forwarded) equals the published one, item for item.
import { cpSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Executor, Policy, ToolRegistry, textOf } from '@toolbelt/core';
import { WorkspaceGuard } from '../workspace/guard.js';
import { createLsp, type Lsp } from './index.js';
import { pullDiagnostics, pullKind } from './pull.js';

const fixture = join(import.meta.dirname, '__fixtures__', 'project');
let root: string;
let lsp: Lsp;
let executor: Executor;

beforeAll(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'toolbelt-lsp-pull-')));
  cpSync(fixture, root, { recursive: true });
  writeFileSync(join(root, 'src', 'broken.ts'), 'export function f( {\n  return 1;\n}\n');
  writeFileSync(
    join(root, 'src', 'multi.ts'),
    'import { nothing } from "./math.js";\nexport const z: { a: string } = {\n  a: 1,\n};\nexport const w = nothing + 1;\n',
  );
  lsp = createLsp();
  executor = new Executor({
    registry: new ToolRegistry().registerAll(lsp.tools),
    policy: new Policy({ mode: 'safe' }),
    workspace: new WorkspaceGuard({ roots: [root] }),
  });
});

afterAll(async () => {
  await executor.close();
  rmSync(root, { recursive: true, force: true });
});

const spec = () => lsp.runtime.specs.find((s) => s.name === 'typescript')!;

describe('diagnostics asked for', () => {
  it('typescript-language-server forwards tsserver requests, so its diagnostics can be asked for', async () => {
    expect((await executor.call({ tool: 'diagnostics', input: { path: 'src/main.ts' } })).status).toBe('success');
    const client = await lsp.pool.peek(spec(), root);
    expect(pullKind(client!.capabilities)).toBe('tsserver');
    expect(pullKind({})).toBeUndefined();
    expect(pullKind({ diagnosticProvider: { interFileDependencies: false, workspaceDiagnostics: false } })).toBe('lsp');
  });

  it.each(['src/main.ts', 'src/math.ts', 'src/broken.ts', 'src/multi.ts'])(
    '%s: the pulled list equals the published one',
    async (path) => {
      await executor.call({ tool: 'diagnostics', input: { path } });
      const client = (await lsp.pool.peek(spec(), root))!;
      const doc = await client.documents.sync(join(root, path), { fresh: true });
      const pulled = await pullDiagnostics(client.capabilities, (m, p, s) => client.request(m, p, s), doc);
      const published = await client.documents.diagnostics(doc, { timeoutMs: 30_000, settleMs: 1_000 });
      const shape = (ds: typeof pulled) =>
        (ds ?? [])
          .filter((d) => (d.severity ?? 1) <= 3)
          .map((d) => ({ range: d.range, message: d.message, severity: d.severity, code: d.code }))
          .sort((a, b) => a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character);
      expect(pulled).toBeDefined();
      expect(shape(pulled)).toEqual(shape(published));
      if (path !== 'src/math.ts') expect(shape(pulled).length).toBeGreaterThan(0);
    },
  );

  it('the tool answers the same text either way', async () => {
    const r = await executor.call({ tool: 'diagnostics', input: { path: 'src/main.ts' } });
    expect(textOf(r)).toBe(
      "src/main.ts: 1 error, 0 warnings\nsrc/main.ts:6:7 error TS2322: Type 'number' is not assignable to type 'string'.",
    );
  });
});
