// Against the real typescript-language-server, started once for this file.
import { cpSync, linkSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Executor, Policy, textOf, ToolRegistry } from '@toolbelt/core';
import { WorkspaceGuard } from '../workspace/guard.js';
import { mkfifo, withoutBlocking } from '../workspace/__fixtures__/special.js';
import { createLsp, type Lsp } from './index.js';

const fixture = join(import.meta.dirname, '__fixtures__', 'project');
let root: string;
let lsp: Lsp;
let executor: Executor;

const call = (tool: string, input: unknown) => executor.call({ tool, input });
const text = async (tool: string, input: unknown) => {
  const r = await call(tool, input);
  expect(r.status, textOf(r)).toBe('success');
  return textOf(r);
};
const serverPid = async () =>
  (
    await lsp.pool.peek(
      lsp.runtime.specs.find((s) => s.name === 'typescript')!,
      root,
    )
  )?.pid;

beforeAll(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'toolbelt-lsp-')));
  cpSync(fixture, root, { recursive: true });
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

describe('LSP tools on typescript-language-server', () => {
  it('diagnostics reports the type error with a 1-based position and its code', async () => {
    const out = await text('diagnostics', { path: 'src/main.ts' });
    expect(out).toBe(
      "src/main.ts: 1 error, 0 warnings\nsrc/main.ts:6:7 error TS2322: Type 'number' is not assignable to type 'string'.",
    );
    expect(await text('diagnostics', { path: 'src/math.ts' })).toBe('src/math.ts: no problems found.');
  });

  it('definition follows an import to the defining line', async () => {
    expect(await text('code_lookup', { what: 'definition', path: 'src/main.ts', line: 4, symbol: 'add' })).toBe(
      'src/math.ts:2:17: export function add(a: number, b: number): number {',
    );
    expect(await text('code_lookup', { what: 'definition', path: 'src/main.ts', line: 6, column: 34 })).toBe(
      'src/main.ts:5:7: const circle = new Circle(2);',
    );
  });

  it('references finds every use across files, with or without the declaration', async () => {
    const all = await text('code_lookup', { what: 'references', path: 'src/math.ts', line: 2, symbol: 'add' });
    expect(all.split('\n')).toEqual([
      '4 references in 2 files:',
      "src/main.ts:1:10: import { add } from './math.js';",
      'src/main.ts:4:15: const total = add(1, 2);',
      'src/main.ts:6:23: const label: string = add(total, circle.area());',
      'src/math.ts:2:17: export function add(a: number, b: number): number {',
    ]);
    const uses = await text('code_lookup', {
      what: 'references',
      path: 'src/shapes.ts',
      line: 10,
      symbol: 'area',
      include_declaration: false,
    });
    // Circle.area implements Shape.area, so the interface member counts as a use.
    expect(uses).toBe(
      '2 references in 2 files:\nsrc/main.ts:6:41: const label: string = add(total, circle.area());\nsrc/shapes.ts:4:3: area(): number;',
    );
  });

  it('hover shows the inferred type and the doc comment', async () => {
    expect(await text('code_lookup', { what: 'hover', path: 'src/main.ts', line: 5, symbol: 'circle' })).toContain(
      'const circle: Circle',
    );
    const add = await text('code_lookup', { what: 'hover', path: 'src/math.ts', line: 2, symbol: 'add' });
    expect(add).toContain('function add(a: number, b: number): number');
    expect(add).toContain('Adds two numbers.');
  });

  it('symbols outlines a file in source order with members nested', async () => {
    expect((await text('symbols', { path: 'src/shapes.ts' })).split('\n')).toEqual([
      'src/shapes.ts:',
      'interface Shape — 3:18',
      '  method area — 4:3',
      'class Circle — 7:14',
      '  constructor — 8:3',
      '  property radius — 8:24',
      '  method area — 10:3',
    ]);
  });

  it('diagnostics follow edits on disk, in the file and in the files it imports', async () => {
    const main = join(root, 'src/main.ts');
    const math = join(root, 'src/math.ts');
    const original = { main: textOfFile(main), math: textOfFile(math) };
    try {
      writeFileSync(main, original.main.replace('const label: string', 'const label: number'));
      expect(await text('diagnostics', { path: 'src/main.ts' })).toBe('src/main.ts: no problems found.');
      writeFileSync(math, original.math.replace('b: number): number', 'b: number): string'));
      const out = await text('diagnostics', { path: 'src/main.ts' });
      expect(out).toContain(
        "src/main.ts:6:27 error TS2345: Argument of type 'string' is not assignable to parameter of type 'number'.",
      );
    } finally {
      writeFileSync(main, original.main);
      writeFileSync(math, original.math);
    }
    expect(await text('diagnostics', { path: 'src/main.ts' })).toContain('TS2322');
  });

  it('refuses positions past the end, a symbol not on the line, unknown file types and paths outside the workspace', async () => {
    const past = await call('code_lookup', { what: 'hover', path: 'src/main.ts', line: 99, column: 1 });
    expect(past.error?.message).toBe('line 99 is past the end of src/main.ts (8 lines)');
    const col = await call('code_lookup', { what: 'hover', path: 'src/main.ts', line: 1, column: 200 });
    expect(col.error?.message).toContain('column 200 is past the end of line 1');
    const sym = await call('code_lookup', { what: 'definition', path: 'src/main.ts', line: 1, symbol: 'nothere' });
    expect(sym.error?.code).toBe('INVALID_PARAMS');
    expect(sym.error?.message).toContain(`"nothere" does not occur on line 1`);
    const neither = await call('code_lookup', { what: 'hover', path: 'src/main.ts', line: 1 });
    expect(neither.error?.message).toContain('give column or symbol');
    writeFileSync(join(root, 'notes.py'), 'x = 1\n');
    const py = await call('symbols', { path: 'notes.py' });
    expect(py.error?.code).toBe('INVALID_PARAMS');
    expect(py.error?.message).toContain('no language server handles notes.py');
    expect((await call('diagnostics', { path: 'src/missing.ts' })).error?.code).toBe('NOT_FOUND');
    expect((await call('diagnostics', { path: '../outside.ts' })).error?.code).toBe('PERMISSION_DENIED');
  });

  it('refuses a named pipe at once and a file hard-linked from outside the workspace', async () => {
    // Both are removed at once: the server must never meet them in the project.
    const pipe = mkfifo(join(root, 'src', 'pipe.ts'));
    const outside = realpathSync(mkdtempSync(join(tmpdir(), 'toolbelt-lsp-outside-')));
    writeFileSync(join(outside, 'secret.ts'), 'export const secret = 1;\n');
    linkSync(join(outside, 'secret.ts'), join(root, 'src', 'linked.ts'));
    try {
      const { result, rescued } = await withoutBlocking([pipe], outside, () =>
        call('symbols', { path: 'src/pipe.ts' }),
      );
      expect(rescued).toBe(false);
      expect(result.error).toMatchObject({
        code: 'INVALID_PARAMS',
        message: expect.stringContaining('src/pipe.ts is a named pipe (FIFO)'),
      });
      const linked = await call('symbols', { path: 'src/linked.ts' });
      expect(linked.error).toMatchObject({
        code: 'INVALID_PARAMS',
        message: expect.stringContaining('src/linked.ts has 2 hard links'),
      });
    } finally {
      rmSync(pipe);
      rmSync(join(root, 'src', 'linked.ts'));
      rmSync(outside, { recursive: true, force: true });
    }
  });

  it('the LSP tools are reads, auto-approved in safe mode', async () => {
    const e = await executor.explain({
      tool: 'code_lookup',
      input: { what: 'references', path: 'src/main.ts', line: 1, column: 10 },
    });
    expect(e.effect).toBe('read');
    expect(e.decision?.action).toBe('allow');
    expect(e.classification?.subject?.paths).toEqual([join(root, 'src/main.ts')]);
  });

  it('a killed server is restarted on the next call and the warm one is reused meanwhile', async () => {
    const before = await serverPid();
    const starts = lsp.pool.starts;
    await text('code_lookup', { what: 'hover', path: 'src/main.ts', line: 4, symbol: 'total' });
    expect(lsp.pool.starts).toBe(starts);
    expect(await serverPid()).toBe(before);

    const client = await lsp.pool.peek(
      lsp.runtime.specs.find((s) => s.name === 'typescript')!,
      root,
    );
    process.kill(before!, 'SIGKILL');
    await client!.exited;

    expect(await text('diagnostics', { path: 'src/main.ts' })).toContain('TS2322');
    expect(lsp.pool.starts).toBe(starts + 1);
    const after = await serverPid();
    expect(after).toBeDefined();
    expect(after).not.toBe(before);
  });
});

function textOfFile(path: string): string {
  return readFileSync(path, 'utf8');
}
