import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Executor, Policy, textOf, ToolRegistry } from '@toolbelt/core';
import { serve, type TestServer } from './__fixtures__/server.js';
import { builtinTools } from '../builtin.js';
import { BraveSearchProvider, plainText, webTools } from './index.js';
import { webSearchTool } from './web_search.js';

const KEY = 'test-brave-key';
let brave: TestServer;
let status = 200;
const queries: URLSearchParams[] = [];

beforeAll(async () => {
  // Speaks the Brave Web Search API: GET /res/v1/web/search?q=&count=, X-Subscription-Token.
  brave = await serve((req, res) => {
    const url = new URL(req.url!, 'http://x');
    if (url.pathname !== '/res/v1/web/search') return void res.writeHead(404).end();
    if (req.headers['x-subscription-token'] !== KEY)
      return void res.writeHead(401, { 'content-type': 'application/json' }).end('{"type":"ErrorResponse"}');
    if (status !== 200) return void res.writeHead(status).end('slow down');
    queries.push(url.searchParams);
    const count = Number(url.searchParams.get('count'));
    const results = Array.from({ length: Math.min(count, 3) }, (_, i) => ({
      title: `Result <strong>${i + 1}</strong> for ${url.searchParams.get('q')}`,
      url: `https://example.com/${i + 1}`,
      description: 'A <strong>matching</strong> page &amp; more &#39;quoted&#39;',
      extra: 'ignored',
    }));
    res
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ type: 'search', web: { type: 'search', results } }));
  });
});

afterAll(() => brave.close());

function executorWith(apiKey = KEY) {
  const tool = webSearchTool(new BraveSearchProvider({ apiKey, baseUrl: brave.origin, retry: { baseDelayMs: 1 } }));
  return new Executor({ registry: new ToolRegistry().register(tool), policy: new Policy({ mode: 'safe' }) });
}

describe('web_search through Brave', () => {
  it('returns numbered results with title, URL and plain-text description', async () => {
    const r = await executorWith().call({ tool: 'web_search', input: { query: 'toolbelt agents', count: 2 } });
    expect(r.status).toBe('success');
    expect(textOf(r)).toBe(
      [
        'Results for "toolbelt agents" (2 via Brave):',
        '',
        '1. Result 1 for toolbelt agents',
        '   https://example.com/1',
        "   A matching page & more 'quoted'",
        '',
        '2. Result 2 for toolbelt agents',
        '   https://example.com/2',
        "   A matching page & more 'quoted'",
      ].join('\n'),
    );
    expect(queries.at(-1)?.get('count')).toBe('2');
    expect(r.approvedBy).toBe('auto');
  });

  it('asks for 5 results by default, clamps count into 1-20 and cuts long queries to 400 characters', async () => {
    const ex = executorWith();
    await ex.call({ tool: 'web_search', input: { query: 'x' } });
    expect(queries.at(-1)?.get('count')).toBe('5');
    const tooMany = await ex.call({ tool: 'web_search', input: { query: 'x', count: 50 } });
    expect(tooMany.status).toBe('success');
    expect(queries.at(-1)?.get('count')).toBe('20');
    await ex.call({ tool: 'web_search', input: { query: 'x', count: 0 } });
    expect(queries.at(-1)?.get('count')).toBe('1');
    await ex.call({ tool: 'web_search', input: { query: 'x', count: 20 } });
    expect(queries.at(-1)?.get('count')).toBe('20');
    expect((await ex.call({ tool: 'web_search', input: { query: 'x', count: 2.5 } })).error?.code).toBe(
      'INVALID_PARAMS',
    );
    const long = await ex.call({ tool: 'web_search', input: { query: 'q'.repeat(450) } });
    expect(queries.at(-1)?.get('q')).toHaveLength(400);
    expect(textOf(long)).toContain('(query cut to 400 characters)');
  });

  it('says what to do when the key is rejected or the rate limit is hit', async () => {
    const bad = await executorWith('wrong-key').call({ tool: 'web_search', input: { query: 'x' } });
    expect(bad.error?.code).toBe('PERMISSION_DENIED');
    expect(bad.error?.message).toContain('Brave Search rejected the API key (HTTP 401)');
    status = 429;
    try {
      const limited = await executorWith().call({ tool: 'web_search', input: { query: 'x' } });
      expect(limited.error).toMatchObject({ code: 'EXECUTION_FAILED', recoverable: true });
      expect(limited.error?.message).toContain('rate limit');
    } finally {
      status = 200;
    }
  });
});

describe('web tool registration', () => {
  const names = (tools: { name: string }[]) => tools.map((t) => t.name);

  it('registers web_search only when a Brave key is configured, in config or environment', () => {
    expect(names(webTools({ env: {} }))).toEqual(['web_fetch']);
    expect(names(webTools({ env: { BRAVE_API_KEY: 'k' } }))).toEqual(['web_fetch', 'web_search']);
    expect(names(webTools({ config: { braveApiKey: 'k' }, env: {} }))).toEqual(['web_fetch', 'web_search']);
  });

  it('builtinTools includes the git, LSP and web tools, and web_search only with a key', () => {
    const without = names(builtinTools({ config: {}, env: {} }));
    for (const n of [
      'git_status',
      'git_diff',
      'git_log',
      'git_branch',
      'git_commit',
      'git_push',
      'diagnostics',
      'symbols',
      'code_lookup',
      'web_fetch',
    ]) {
      expect(without).toContain(n);
    }
    expect(without).not.toContain('web_search');
    expect(names(builtinTools({ config: {}, env: { BRAVE_API_KEY: 'k' } }))).toContain('web_search');
    expect(names(builtinTools({ config: { web: { braveApiKey: 'k' } }, env: {} }))).toContain('web_search');
  });

  it('takes any search provider in place of Brave', async () => {
    const tools = webTools({
      env: {},
      searchProvider: {
        name: 'Local',
        search: async (q, n) => [{ title: `only ${q}`, url: 'https://local/1', description: `n=${n}` }],
      },
    });
    const ex = new Executor({ registry: new ToolRegistry().registerAll(tools), policy: new Policy({ mode: 'yolo' }) });
    const r = await ex.call({ tool: 'web_search', input: { query: 'q', count: 7 } });
    expect(textOf(r)).toBe('Results for "q" (1 via Local):\n\n1. only q\n   https://local/1\n   n=7');
  });

  it('uses the configured Brave base URL', async () => {
    const [, search] = webTools({ config: { braveApiKey: KEY, braveBaseUrl: brave.origin }, env: {} });
    const ex = new Executor({ registry: new ToolRegistry().register(search), policy: new Policy({ mode: 'yolo' }) });
    expect((await ex.call({ tool: 'web_search', input: { query: 'configured' } })).status).toBe('success');
    expect(queries.at(-1)?.get('q')).toBe('configured');
  });
});

describe('plainText', () => {
  it('drops tags and decodes entities', () => {
    expect(plainText('<b>a</b> &lt;b&gt; &#x41;&#66; &nbsp;x &unknown;')).toBe('a <b> AB x &unknown;');
  });
});
