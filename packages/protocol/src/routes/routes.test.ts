// The route table's own rules, and the URLs built from it.
import { describe, expect, it } from 'vitest';
import { queryString, routePath, ROUTES, routeUrl, type RouteSpec } from './index.js';

const all = Object.entries(ROUTES as Record<string, RouteSpec>);

describe('the route table', () => {
  it('holds each method and path once', () => {
    const seen = all.map(([, r]) => `${r.method} ${r.path}`);
    expect(new Set(seen).size).toBe(seen.length);
  });

  it("describes every path parameter, and only the path's", () => {
    for (const [key, r] of all) {
      const inPath = [...r.path.matchAll(/:(\w+)/g)].map((m) => m[1]).sort();
      expect(Object.keys(r.params ?? {}).sort(), key).toEqual(inPath);
    }
  });

  it('puts every route with a token under /api, but the metrics page', () => {
    for (const [key, r] of all)
      if (r.role !== 'public' && key !== 'prometheus') expect(r.path.startsWith('/api/'), key).toBe(true);
  });
});

describe('URLs from the table', () => {
  it('fills in the path parameters, encoded', () => {
    expect(routePath('getCall', { callId: 'a/b c' })).toBe('/api/tool-calls/a%2Fb%20c');
    expect(routePath('removeMember', { spaceId: 's', memberId: 'm' })).toBe('/api/spaces/s/members/m');
  });

  it('refuses a missing parameter', () => {
    expect(() => routePath('getCall', {} as { callId: string })).toThrow('getCall needs the path parameter callId');
  });

  it('joins lists and leaves out what is unset, empty or false', () => {
    expect(queryString({ a: undefined, b: '', c: false, d: true, e: 0, f: ['x', 'y'] })).toBe('?d=true&e=0&f=x%2Cy');
    expect(queryString({})).toBe('');
    expect(routeUrl('readInbox', { params: { agentId: 'ag' }, query: { includeAcked: true, limit: 5 } })).toBe(
      '/api/agents/ag/inbox?includeAcked=true&limit=5',
    );
  });
});
