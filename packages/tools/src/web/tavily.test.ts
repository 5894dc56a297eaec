import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Executor, Policy, textOf, ToolRegistry } from '@toolbelt/core';
import { serve, type TestServer } from './__fixtures__/server.js';
import { searchOffReason, webTools } from './index.js';

const KEY = 'tvly-test-key';
let tavily: TestServer;
let brave: TestServer;
let limited = 0;
const bodies: { query: string; max_results: number; search_depth: string }[] = [];

beforeAll(async () => {
  // Speaks the Tavily Search API: POST /search, Authorization: Bearer <key>, JSON in and out.
  tavily = await serve((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/search') return void res.writeHead(404).end();
      if (req.headers.authorization !== `Bearer ${KEY}`)
        return void res
          .writeHead(401, { 'content-type': 'application/json' })
          .end('{"detail":{"error":"Unauthorized"}}');
      if (limited > 0) {
        limited--;
        return void res.writeHead(429, { 'retry-after': '0' }).end('{}');
      }
      const body = JSON.parse(raw);
      bodies.push(body);
      const results = Array.from({ length: Math.min(body.max_results, 2) }, (_, i) => ({
        title: `Tavily ${i + 1}: ${body.query}`,
        url: `https://example.org/${i + 1}`,
        content: i === 0 ? 'Short &amp; plain.' : 'long '.repeat(100),
        score: 0.9 - i / 10,
        raw_content: null,
      }));
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ query: body.query, answer: null, images: [], results, response_time: 0.5 }));
    });
  });
  brave = await serve(
    (_req, res) =>
      void res
        .writeHead(200, { 'content-type': 'application/json' })
        .end('{"web":{"results":[{"title":"from Brave","url":"https://brave.example/"}]}}'),
  );
});

afterAll(async () => {
  await tavily.close();
  await brave.close();
});

function search(config: Parameters<typeof webTools>[0]) {
  const tools = webTools(config);
  return new Executor({ registry: new ToolRegistry().registerAll(tools), policy: new Policy({ mode: 'safe' }) });
}

const tavilyConfig = (apiKey = KEY) => ({
  config: { tavilyApiKey: apiKey, tavilyBaseUrl: tavily.origin, retry: { baseDelayMs: 1 } },
  env: {},
});

describe('web_search through Tavily', () => {
  it('posts the query and count, and lists results with short plain-text snippets', async () => {
    const r = await search(tavilyConfig()).call({ tool: 'web_search', input: { query: 'agent tools', count: 3 } });
    expect(bodies.at(-1)).toEqual({ query: 'agent tools', max_results: 3, search_depth: 'basic' });
    const text = textOf(r);
    expect(text).toMatch(
      /^Results for "agent tools" \(2 via Tavily\):\n\n1\. Tavily 1: agent tools\n {3}https:\/\/example\.org\/1\n {3}Short & plain\.\n\n2\./,
    );
    const snippet = text.split('\n').at(-1)!.trim();
    expect(snippet).toHaveLength(300);
    expect(snippet.endsWith('…')).toBe(true);
  });

  it('registers with TAVILY_API_KEY from the environment', () => {
    expect(webTools({ env: { TAVILY_API_KEY: 'k' } }).map((t) => t.name)).toEqual(['web_fetch', 'web_search']);
  });

  it('says which key to check when Tavily refuses it, and waits out a 429', async () => {
    const bad = await search(tavilyConfig('tvly-wrong')).call({ tool: 'web_search', input: { query: 'x' } });
    expect(bad.error?.code).toBe('PERMISSION_DENIED');
    expect(bad.error?.message).toBe(
      'Tavily rejected the API key (HTTP 401); ask the user to check web.tavilyApiKey or TAVILY_API_KEY',
    );
    limited = 2;
    const after = await search(tavilyConfig()).call({ tool: 'web_search', input: { query: 'x' } });
    expect(after.status).toBe('success');
    expect(limited).toBe(0);
  });
});

describe('choosing the search provider', () => {
  it('prefers Brave when both keys are set, and takes the configured provider over that', async () => {
    const config = { braveApiKey: 'b', braveBaseUrl: brave.origin, tavilyApiKey: KEY, tavilyBaseUrl: tavily.origin };
    const first = await search({ config, env: {} }).call({ tool: 'web_search', input: { query: 'q' } });
    expect(textOf(first)).toContain('via Brave');
    const chosen = await search({ config: { ...config, searchProvider: 'tavily' }, env: {} }).call({
      tool: 'web_search',
      input: { query: 'q' },
    });
    expect(textOf(chosen)).toContain('via Tavily');
  });

  it('registers no web_search when the configured provider has no key', () => {
    expect(webTools({ config: { searchProvider: 'tavily' }, env: { BRAVE_API_KEY: 'b' } }).map((t) => t.name)).toEqual([
      'web_fetch',
    ]);
  });
});

describe('web_search through SearXNG', () => {
  let searx: TestServer;
  let json = true;
  beforeAll(async () => {
    // Speaks SearXNG's search API: GET /search?q=&format=json; 403 when the json format is off.
    searx = await serve((req, res) => {
      const url = new URL(req.url!, 'http://x');
      if (url.pathname !== '/searx/search') return void res.writeHead(404).end();
      if (!json || url.searchParams.get('format') !== 'json') return void res.writeHead(403).end('Forbidden');
      const results = [1, 2, 3].map((i) => ({
        title: `SearX ${i}`,
        url: `https://searx.example/${i}`,
        content: `about <b>${url.searchParams.get('q')}</b>`,
        engine: 'ddg',
      }));
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ query: url.searchParams.get('q'), number_of_results: 3, results }));
    });
  });
  afterAll(() => searx.close());

  it('searches an instance named by SEARXNG_URL, no key needed, and keeps its path', async () => {
    const r = await search({ env: { SEARXNG_URL: `${searx.origin}/searx` } }).call({
      tool: 'web_search',
      input: { query: 'agents', count: 2 },
    });
    expect(textOf(r)).toBe(
      'Results for "agents" (2 via SearXNG):\n\n1. SearX 1\n   https://searx.example/1\n   about agents\n\n2. SearX 2\n   https://searx.example/2\n   about agents',
    );
  });

  it('says to turn on the json format when the instance refuses it', async () => {
    json = false;
    try {
      const r = await search({
        config: { searxngUrl: `${searx.origin}/searx/`, retry: { baseDelayMs: 1 } },
        env: {},
      }).call({
        tool: 'web_search',
        input: { query: 'x' },
      });
      expect(r.error?.code).toBe('PERMISSION_DENIED');
      expect(r.error?.message).toContain('SearXNG refused to answer in JSON (HTTP 403)');
      expect(r.error?.message).toContain('"json" under search.formats');
    } finally {
      json = true;
    }
  });

  it('leaves web_search off for a SEARXNG_URL that is no http(s) URL, and says why', () => {
    expect(webTools({ env: { SEARXNG_URL: 'localhost:8888' } }).map((t) => t.name)).toEqual(['web_fetch']);
    expect(searchOffReason({}, { SEARXNG_URL: 'localhost:8888' })).toBe(
      'SEARXNG_URL "localhost:8888" is not an http(s) URL',
    );
  });
});
