// The PostgreSQL store stands on its own: nothing under store/pg/, nor anything it imports in turn,
// reaches the SQLite store or its driver, so a deployment on PostgreSQL never loads better-sqlite3.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const here = dirname(fileURLToPath(import.meta.url));
const src = resolve(here, '../..');

/** The modules a file names: static imports and re-exports, side-effect imports, dynamic import(). */
function specifiers(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const found = text.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*)['"]([^'"]+)['"]/g);
  return [...found].map((m) => m[1]);
}

/** Every file reachable from `entries` within the gateway's sources, and every package they name. */
function reach(entries: string[]): { files: Set<string>; packages: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const todo = [...entries];
  for (let file = todo.pop(); file !== undefined; file = todo.pop()) {
    if (files.has(file)) continue;
    files.add(file);
    for (const spec of specifiers(file)) {
      if (!spec.startsWith('.')) packages.add(spec);
      else if (resolve(dirname(file), spec).startsWith(src))
        todo.push(resolve(dirname(file), spec).replace(/\.js$/, '.ts'));
    }
  }
  return { files, packages };
}

const pgFiles = (readdirSync(here, { recursive: true }) as string[])
  .filter((f) => f.endsWith('.ts'))
  .map((f) => join(here, f));

describe('store/pg imports', () => {
  it('reach neither the SQLite store nor better-sqlite3', () => {
    const { files, packages } = reach(pgFiles);
    const sqlite = [...files].map((f) => relative(src, f)).filter((f) => /sqlite/i.test(f));
    expect(sqlite).toEqual([]);
    expect([...packages].filter((p) => /sqlite/i.test(p))).toEqual([]);
    // The walk did follow the imports: the store, its shared half and the gateway beyond.
    expect(files.size).toBeGreaterThan(pgFiles.length + 10);
  });

  it('would see an import of the SQLite store', () => {
    const { files } = reach([join(src, 'store/sqlite/store.ts')]);
    expect([...files].some((f) => f.includes('/store/sqlite/open.ts'))).toBe(true);
  });
});
