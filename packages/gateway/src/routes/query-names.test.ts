// The query parameters each handler reads are the ones its route declares in the table (so the
// OpenAPI document, the client and the console offer exactly what the gateway reads): the handlers'
// source, route by route, against ROUTES[key].query.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ROUTES, type RouteKey, type RouteSpec } from '@toolbelt/protocol';
import { describe, expect, it } from 'vitest';

const FILES = ['routes/calls.ts', 'routes/service.ts', 'spaces/routes.ts', 'console/api.ts'];

/** Each `route(r, 'key', ...)` of a file with the query names its handler reads. */
function handlers(text: string): { key: string; names: string[] }[] {
  const starts = [...text.matchAll(/route\(r, '(\w+)'/g)];
  return starts.map((m, i) => {
    const body = text.slice(m.index, starts[i + 1]?.index ?? text.length);
    const names = [
      ...body.matchAll(/(?:intParam|listParam)\(c, '(\w+)'/g),
      ...body.matchAll(/c\.req\.query\('(\w+)'\)/g),
      ...(/= c\.req\.query\(\);/.test(body) ? body.matchAll(/\bq\.(\w+)/g) : []),
    ].map((n) => n[1]);
    return { key: m[1], names: [...new Set(names)] };
  });
}

const found = FILES.flatMap((f) => handlers(readFileSync(fileURLToPath(new URL(`../${f}`, import.meta.url)), 'utf8')));

describe('the query parameters the handlers read', () => {
  it('are found in the handlers', () => {
    expect(found.length).toBeGreaterThan(25);
    expect(found.find((h) => h.key === 'executions')?.names).toEqual(
      expect.arrayContaining(['limit', 'before', 'tool', 'since']),
    );
  });

  it("are each declared in the route's query", () => {
    for (const { key, names } of found) {
      const declared = Object.keys((ROUTES[key as RouteKey] as RouteSpec).query ?? {});
      expect(declared, key).toEqual(expect.arrayContaining(names));
    }
  });
});
