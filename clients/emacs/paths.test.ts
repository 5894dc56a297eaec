// The Emacs client's paths against the route table of @toolbelt/protocol: every "/api/..." string
// toolbelt.el sends (a literal, or the first part of a `format` or `concat`) is a route of the
// table with the method it is sent with, and every query parameter it adds is one the route takes.
// A route renamed or moved in the table fails here, before the Emacs suite (which needs Emacs) runs.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ROUTES, type RouteSpec } from '@toolbelt/protocol';
import { describe, expect, it } from 'vitest';

const source = readFileSync(fileURLToPath(new URL('./toolbelt.el', import.meta.url)), 'utf8');
const routes = Object.entries(ROUTES as Record<string, RouteSpec>);

interface Use {
  method: string;
  /** The path as written, `%s` standing for what `format` or `concat` puts in. */
  path: string;
  query: string[];
  line: number;
}

/** Each "/api/..." string of the file, with the method of the request it is part of. */
function uses(el: string): Use[] {
  const out: Use[] = [];
  for (const m of el.matchAll(/"(\/api\/[^"]*)"/g)) {
    const before = el.slice(Math.max(0, m.index - 120), m.index);
    // (toolbelt--request "POST" (format "/api/..." ...)), toolbelt--request-async alike, the method
    // on the line before or on the same one; none (the event stream's path): GET.
    const method = /"(GET|POST|DELETE|PUT|PATCH)"\s*(?:\((?:format|concat)\s*)?$/.exec(before)?.[1] ?? 'GET';
    const [written, q = ''] = m[1].split('?');
    const after = el.slice(m.index + m[0].length, m.index + m[0].length + 200);
    // concat "/api/x/" (something): the something is a path segment.
    const path = written.endsWith('/') ? `${written}%s` : written;
    // The event stream's filter, added by concat: "?agentId=".
    const added = [...after.matchAll(/"\?(\w+)=/g)].map((a) => a[1]);
    const query = [...new URLSearchParams(q).keys(), ...added.slice(0, 1)];
    out.push({ method, path, query, line: el.slice(0, m.index).split('\n').length });
  }
  return out;
}

/** The routes of the table a path as written may be: `%s` fills a parameter or any one segment. */
function matches(use: Use): string[] {
  const segs = use.path.split('/');
  return routes
    .filter(([, r]) => r.method === use.method)
    .filter(([, r]) => {
      const want = r.path.split('/');
      return want.length === segs.length && want.every((w, i) => w === segs[i] || segs[i] === '%s');
    })
    .filter(([, r]) => use.query.every((q) => q in (r.query ?? {})))
    .map(([key]) => key);
}

describe("the Emacs client's paths", () => {
  const found = uses(source);

  it('finds the paths toolbelt.el sends', () => {
    expect(found.length).toBeGreaterThanOrEqual(8);
    expect(found.map((u) => `${u.method} ${u.path}`)).toContain('POST /api/runs/%s/tool-calls');
  });

  it('sends each to a route of the table, with its method and query parameters', () => {
    for (const u of found) expect(matches(u), `toolbelt.el:${u.line} ${u.method} ${u.path}`).not.toEqual([]);
  });

  it('decides with verbs that are routes: approve and reject', () => {
    const verbs = [...new Set([...source.matchAll(/\(toolbelt--decide "(\w+)"/g)].map((m) => m[1]))];
    expect(verbs.sort()).toEqual(['approve', 'reject']);
    for (const verb of verbs)
      expect(matches({ method: 'POST', path: `/api/tool-calls/%s/${verb}`, query: [], line: 0 })).toHaveLength(1);
  });

  it('would notice a path, a method or a query parameter the table does not have', () => {
    expect(matches({ method: 'GET', path: '/api/tool-call/%s', query: [], line: 0 })).toEqual([]);
    expect(matches({ method: 'DELETE', path: '/api/tool-calls/%s', query: [], line: 0 })).toEqual([]);
    expect(matches({ method: 'GET', path: '/api/tool-calls', query: ['state'], line: 0 })).toEqual([]);
  });
});
