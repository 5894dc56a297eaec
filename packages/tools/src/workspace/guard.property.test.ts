// Property: whatever paths an agent sends, nothing outside the workspace roots is ever read,
// written, listed or deleted — checked through the guard alone and through the real tools.
import { existsSync, lstatSync, readdirSync, readFileSync, readlinkSync, realpathSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { Executor, Policy, textOf, ToolRegistry } from '@toolbelt/core';
import { fsTools } from '../fs/index.js';
import { searchTools } from '../search/index.js';
import { makeTrapTree, type TrapTree } from './__fixtures__/tree.js';
import { WorkspaceGuard, type Access } from './guard.js';

const SEGMENTS = [
  '..',
  '.',
  '',
  'a.txt',
  'dir',
  'sub',
  'b.txt',
  'link-in',
  'link-out',
  'dirlink-out',
  'dirlink-in',
  'dangling-in',
  'dangling-out',
  'relparent-link',
  'chain',
  'chain-out',
  'abs-out',
  'outside',
  'root',
  'root2',
  'secret.txt',
  'x.txt',
  'new.txt',
  '\u2025',
  '..foo',
  'loop1',
  '~',
];

function pathArb(t: () => TrapTree) {
  return fc
    .tuple(
      fc.constantFrom('', 'BASE/', 'ROOT/', 'OUT/', '/', './'),
      fc.array(fc.constantFrom(...SEGMENTS), { minLength: 1, maxLength: 5 }),
      fc.boolean(),
    )
    .map(([prefix, segs, slash]) => {
      const tree = t();
      const head = prefix.replace('BASE', tree.base).replace('ROOT', tree.root).replace('OUT', tree.outside);
      return head + segs.join('/') + (slash ? '/' : '');
    });
}

/** Everything outside the root, as data: names, kinds, contents, link targets. */
function snapshot(t: TrapTree): string {
  const out: string[] = [];
  const visit = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const p = join(dir, name);
      if (p === t.root) continue;
      const st = lstatSync(p);
      if (st.isSymbolicLink()) out.push(`${p} -> ${readlinkSync(p)}`);
      else if (st.isDirectory()) {
        out.push(`${p}/`);
        visit(p);
      } else out.push(`${p} = ${readFileSync(p, 'utf8')} (${st.mode})`);
    }
  };
  visit(t.base);
  return out.join('\n');
}

/** The nearest existing ancestor of a path, resolved: where an operation on it would land. */
function landing(path: string): string {
  let p = path;
  while (!existsSync(p) && dirname(p) !== p) p = dirname(p);
  return realpathSync(p);
}

describe('the guard never lets a path out of the roots', () => {
  const tree = makeTrapTree();
  afterAll(() => rmSync(tree.base, { recursive: true, force: true }));
  const guard = new WorkspaceGuard({ roots: [tree.root] });

  it('resolves only to paths whose real location is inside the root', async () => {
    await fc.assert(
      fc.asyncProperty(
        pathArb(() => tree),
        fc.constantFrom<Access>('read', 'write', 'list', 'delete'),
        async (path, access) => {
          let resolved: string;
          try {
            resolved = await guard.resolve(path, access);
          } catch {
            return;
          }
          const target = access === 'delete' ? dirname(resolved) : resolved;
          const lands = landing(target);
          expect(
            lands === tree.root || lands.startsWith(tree.root + '/'),
            `${path} -> ${resolved} lands at ${lands}`,
          ).toBe(true);
        },
      ),
      { numRuns: 400 },
    );
  });
});

describe('the file and search tools never touch anything outside the roots', () => {
  const tools = [...fsTools(), ...searchTools({ settings: { engine: 'js' } })];
  afterAll(async () => {
    await Promise.allSettled(tools.map((t) => t.dispose?.()));
  });

  type Op = { tool: string; a: string; b: string };
  const op = (t: () => TrapTree) =>
    fc.record({
      tool: fc.constantFrom(
        'read_file',
        'write_file',
        'edit_file',
        'append_file',
        'delete_file',
        'list_directory',
        'create_directory',
        'copy_file',
        'move_file',
        'glob',
        'grep',
      ),
      a: pathArb(t),
      b: pathArb(t),
    });

  function inputFor(o: Op): Record<string, unknown> {
    switch (o.tool) {
      case 'read_file':
        return { path: o.a, offset: -5 };
      case 'write_file':
        return { path: o.a, content: 'WRITTEN' };
      case 'edit_file':
        return { path: o.a, old_string: 'SECRET', new_string: 'EDITED' };
      case 'append_file':
        return { path: o.a, content: 'APPENDED' };
      case 'delete_file':
        return { path: o.a, recursive: true };
      case 'list_directory':
        return { path: o.a, depth: 3 };
      case 'create_directory':
        return { path: o.a };
      case 'copy_file':
        return { source: o.a, destination: o.b, overwrite: true };
      case 'move_file':
        return { source: o.a, destination: o.b, overwrite: true };
      case 'glob':
        return { pattern: '**/*', path: o.a, include_ignored: true };
      default:
        return { pattern: 'SECRET-OUTS[I]DE|other r[o]ot', path: o.a, include_ignored: true };
    }
  }

  it('keeps everything outside unchanged and unseen, whatever the calls', async () => {
    let tree = makeTrapTree();
    const trees: TrapTree[] = [];
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          op(() => tree),
          { minLength: 1, maxLength: 6 },
        ),
        async (ops) => {
          tree = makeTrapTree();
          trees.push(tree);
          const before = snapshot(tree);
          const registry = new ToolRegistry();
          registry.registerAll(tools);
          const executor = new Executor({
            registry,
            policy: new Policy({ mode: 'yolo' }),
            workspace: new WorkspaceGuard({ roots: [tree.root] }),
          });
          for (const o of ops) {
            const r = await executor.call({ tool: o.tool, input: inputFor(o) });
            const text = textOf(r);
            expect(text, `${o.tool} ${JSON.stringify(inputFor(o))}`).not.toContain(tree.secretText);
            expect(text).not.toContain('other root');
            if (r.status === 'success' && ['glob', 'grep', 'list_directory'].includes(o.tool)) {
              // Inside paths are shown relative to the root; an absolute path here would be an escape.
              expect(text).not.toContain(tree.base);
            }
            expect(snapshot(tree), `after ${o.tool} ${JSON.stringify(inputFor(o))}`).toBe(before);
          }
        },
      ),
      { numRuns: 60 },
    );
    for (const t of trees) rmSync(t.base, { recursive: true, force: true });
  }, 60_000);
});
