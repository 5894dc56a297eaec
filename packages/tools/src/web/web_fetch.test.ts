import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Executor, Policy, textOf, ToolRegistry, type ToolResult } from '@toolbelt/core';
import { serve, type TestServer } from './__fixtures__/server.js';
import { HostPolicy } from './ssrf.js';
import { webFetchTool } from './web_fetch.js';

const ARTICLE = `<!doctype html><html><head><title>Release notes</title><style>body{}</style><script>track()</script></head>
<body><nav><a href="/">Home</a> | <a href="/blog">Blog</a> | <a href="/about">About us</a></nav>
<main><article><h1>Version 2 is out</h1>
<p>Version 2 brings a <strong>faster</strong> engine and a new <a href="/docs/config">configuration format</a>. We rewrote the scheduler so that jobs start sooner and use less memory.</p>
<p>Upgrading takes one command, and every setting from version 1 keeps working, so most projects need no changes at all.</p>
<pre><code>npm install engine@2</code></pre></article></main>
<footer>Copyright 2025 Example Corp. All rights reserved. Privacy policy. Terms.</footer></body></html>`;

// Pages that leave out what browsers add: no <html>, no <head>, text outside <body>.
const PARTIAL_PAGES: Record<string, string> = {
  '/fragment': '<p>hello from a <a href="/frag">fragment</a></p>',
  '/body-only': '<body><h2>Body only</h2><p>no head, no html</p></body>',
  '/html-body': '<html><body><p>html and body, no head</p></body></html>',
  '/html-only': '<!doctype html><html><title>Loose</title><p>in html, outside body</p></html>',
  '/around-body': '<html><p>before body</p><body><p>in body</p></body><p>after body</p></html>',
};

const BOMB = gzipSync(Buffer.alloc(20_000_000, 'a'));
let server: TestServer;
let executor: Executor;

function fetchTool(
  opts: {
    allow?: string[];
    timeoutMs?: number;
    maxBytes?: number;
    resolver?: ConstructorParameters<typeof HostPolicy>[1];
  } = {},
) {
  return webFetchTool({
    hosts: new HostPolicy(opts.allow ?? ['127.0.0.1'], opts.resolver),
    userAgent: 'toolbelt-test',
    timeoutMs: opts.timeoutMs ?? 10_000,
    maxBytes: opts.maxBytes ?? 2 * 1024 * 1024,
    maxRedirects: 5,
    retry: { baseDelayMs: 1 },
  });
}

function executorFor(tool = fetchTool()): Executor {
  return new Executor({ registry: new ToolRegistry().register(tool), policy: new Policy({ mode: 'yolo' }) });
}

const fetchWith = (ex: Executor, input: Record<string, unknown>): Promise<ToolResult> =>
  ex.call({ tool: 'web_fetch', input });
const get = (path: string, extra: Record<string, unknown> = {}) =>
  fetchWith(executor, { url: server.origin + path, ...extra });

beforeAll(async () => {
  server = await serve((req, res) => {
    const url = new URL(req.url!, 'http://x');
    const path = url.pathname;
    if (path === '/article')
      return void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(ARTICLE);
    if (PARTIAL_PAGES[path]) return void res.writeHead(200, { 'content-type': 'text/html' }).end(PARTIAL_PAGES[path]);
    if (path === '/json')
      return void res
        .writeHead(200, { 'content-type': 'application/json' })
        .end('{"name":"toolbelt","tags":["a","b"]}');
    if (path === '/text')
      return void res.writeHead(200, { 'content-type': 'text/plain' }).end('plain  text\n  kept as is');
    if (path === '/latin1')
      return void res
        .writeHead(200, { 'content-type': 'text/plain; charset=iso-8859-1' })
        .end(Buffer.from([0x63, 0x61, 0x66, 0xe9]));
    if (path === '/gzip')
      return void res
        .writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip' })
        .end(gzipSync('unzipped fine'));
    if (path === '/big') return void res.writeHead(200, { 'content-type': 'text/plain' }).end('x'.repeat(300_000));
    if (path === '/bomb')
      return void res.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip' }).end(BOMB);
    if (path === '/png')
      return void res
        .writeHead(200, { 'content-type': 'image/png' })
        .end(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0]));
    if (path === '/missing')
      return void res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not here</h1><p>try /article</p>');
    if (path === '/broken') return void res.writeHead(503, { 'content-type': 'text/plain' }).end('overloaded');
    if (path === '/slow') {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('first part, then nothing');
      return; // never ends
    }
    const hop = /^\/hop\/(\d+)$/.exec(path);
    if (hop) {
      const n = Number(hop[1]);
      return void res
        .writeHead(n > 0 ? 302 : 200, n > 0 ? { location: `/hop/${n - 1}` } : { 'content-type': 'text/plain' })
        .end(n > 0 ? '' : 'arrived');
    }
    if (path === '/redirect') return void res.writeHead(302, { location: url.searchParams.get('to')! }).end();
    res.writeHead(404).end();
  });
  executor = executorFor();
});

afterAll(() => server.close());

describe('web_fetch', () => {
  it('converts an HTML page to Markdown with its main content, title and absolute links', async () => {
    const r = await get('/article');
    expect(r.status).toBe('success');
    const text = textOf(r);
    const [header, content] = text.split('\n--- Content ---\n');
    expect(header.split('\n')).toEqual([
      `URL: ${server.origin}/article`,
      'Status: 200 OK',
      'Content-Type: text/html; charset=utf-8',
      'Title: Release notes',
      `Length: ${content.length} characters`,
    ]);
    expect(content).toContain('Version 2 brings a **faster** engine');
    expect(content).toContain(`[configuration format](${server.origin}/docs/config)`);
    expect(content).toContain('```\nnpm install engine@2\n```');
    expect(content).not.toContain('About us');
    expect(content).not.toContain('track()');
    const whole = textOf(await get('/article', { mainContent: false }));
    expect(whole).toContain('About us');
    expect(whole).not.toContain('track()');
  });

  it('converts HTML that has no <head>, no <body> or no <html>, in both modes', async () => {
    const expected: Record<string, string> = {
      '/fragment': `hello from a [fragment](${server.origin}/frag)`,
      '/body-only': '## Body only\n\nno head, no html',
      '/html-body': 'html and body, no head',
      '/html-only': 'in html, outside body',
      '/around-body': 'before body\n\nin body\n\nafter body',
    };
    for (const [path, markdown] of Object.entries(expected)) {
      for (const mainContent of [true, false]) {
        const r = await get(path, { mainContent });
        expect(r.status, path).toBe('success');
        expect(textOf(r).split('\n--- Content ---\n')[1], `${path} mainContent ${mainContent}`).toBe(markdown);
      }
    }
    expect(textOf(await get('/html-only'))).toContain('\nTitle: Loose\n');
  });

  it('pretty-prints JSON, keeps text as is, decodes gzip and the declared charset', async () => {
    expect(textOf(await get('/json'))).toContain(
      '--- Content ---\n{\n  "name": "toolbelt",\n  "tags": [\n    "a",\n    "b"\n  ]\n}',
    );
    expect(textOf(await get('/text'))).toMatch(/--- Content ---\nplain {2}text\n {2}kept as is$/);
    expect(textOf(await get('/gzip'))).toMatch(/--- Content ---\nunzipped fine$/);
    expect(textOf(await get('/latin1'))).toMatch(/--- Content ---\ncafé$/);
  });

  it('follows a redirect chain of up to 5 hops and names the final URL', async () => {
    const text = textOf(await get('/hop/5'));
    expect(text).toContain(`Final URL: ${server.origin}/hop/0 (after 5 redirects)`);
    expect(text).toMatch(/--- Content ---\narrived$/);
    const tooMany = await get('/hop/6');
    expect(tooMany.error?.code).toBe('EXECUTION_FAILED');
    expect(tooMany.error?.message).toContain('too many redirects: more than 5');
  });

  it('cuts the returned text at maxChars and says so', async () => {
    const text = textOf(await get('/big', { maxChars: 1000 }));
    expect(text).toContain('Length: 300,000 characters, showing the first 1,000');
    expect(text).toContain(
      'x'.repeat(1000) +
        '\n\n[Truncated: showing 1,000 of 300,000 characters. Call again with a larger maxChars to see more.]',
    );
    expect(text).not.toContain('x'.repeat(1001));
  });

  it('stops downloading at the byte cap, compressed bombs included', async () => {
    const small = executorFor(fetchTool({ maxBytes: 64 * 1024 }));
    const big = textOf(await fetchWith(small, { url: `${server.origin}/big`, maxChars: 1_000_000 }));
    expect(big).toContain('Length: 65,536 characters');
    expect(big).toContain('[Download stopped at 64 KB; the rest of the response was not fetched.]');
    const bomb = await fetchWith(small, { url: `${server.origin}/bomb`, maxChars: 1_000_000 });
    expect(bomb.status).toBe('success');
    expect(textOf(bomb)).toContain('Length: 65,536 characters');
  });

  it('gives up on a response that does not finish within the timeout', async () => {
    const impatient = executorFor(fetchTool({ timeoutMs: 300 }));
    const r = await fetchWith(impatient, { url: `${server.origin}/slow` });
    expect(r.error?.code).toBe('TIMEOUT');
    expect(r.error?.message).toContain('sent no complete response within');
  });

  it('reports HTTP errors with what the server said, binary content and bad URLs', async () => {
    const missing = await get('/missing');
    expect(missing.error?.code).toBe('NOT_FOUND');
    expect(missing.error?.message).toBe(
      `GET ${server.origin}/missing returned 404 Not Found: Not here try /article. Check the URL.`,
    );
    const broken = await get('/broken');
    expect(broken.error).toMatchObject({ code: 'EXECUTION_FAILED', recoverable: true });
    expect(broken.error?.message).toBe(
      `GET ${server.origin}/broken returned 503 Service Unavailable: overloaded. Try again later. Sent 4 times.`,
    );
    const png = await get('/png');
    expect(png.error?.message).toContain('is image/png (7 bytes); web_fetch returns text, HTML and JSON only');
    expect((await fetchWith(executor, { url: 'file:///etc/passwd' })).error?.message).toContain(
      'only http and https URLs can be fetched',
    );
    expect((await fetchWith(executor, { url: 'example.com/page' })).error?.message).toContain('is not an absolute URL');
  });

  it('is a read of its URL, with a URL preview', async () => {
    const e = await executor.explain({ tool: 'web_fetch', input: { url: `${server.origin}/article` } });
    expect(e.effect).toBe('read');
    expect(e.classification?.subject?.urls).toEqual([`${server.origin}/article`]);
  });
});

describe('web_fetch SSRF guard', () => {
  const closed = executorFor(fetchTool({ allow: [] }));
  const refused = async (url: string, ex = closed) => {
    const r = await fetchWith(ex, { url });
    expect(r.error?.code, `${url}: ${textOf(r)}`).toBe('PERMISSION_DENIED');
    return r.error!.message;
  };

  it('refuses loopback, private, link-local and metadata addresses by default', async () => {
    const before = server.hits.length;
    expect(await refused(`${server.origin}/article`)).toContain('refusing to fetch 127.0.0.1: a loopback address');
    expect(await refused(`http://[::1]:${server.port}/article`)).toContain('a loopback address');
    expect(await refused('http://10.0.0.8/')).toContain('a private network address');
    expect(await refused('http://192.168.1.1/')).toContain('a private network address');
    expect(await refused('http://169.254.169.254/latest/meta-data/')).toContain('the cloud metadata address');
    expect(await refused('http://[::ffff:127.0.0.1]/')).toContain('a loopback address');
    expect(await refused('http://2130706433/')).toContain('127.0.0.1');
    expect(await refused('http://0.0.0.0/')).toContain('the unspecified address');
    expect(server.hits.length).toBe(before);
  });

  it('refuses names that resolve to such addresses, checked on the addresses actually used', async () => {
    expect(await refused(`http://localhost:${server.port}/article`)).toMatch(
      /refusing to fetch localhost \(it resolves to (127\.0\.0\.1|::1)\)/,
    );
    const answers: Record<string, string[]> = {
      'internal.test': ['10.1.2.3'],
      'metadata.test': ['169.254.169.254'],
      'v6.test': ['::1'],
      'mixed.test': ['93.184.216.34', '127.0.0.1'],
    };
    const resolver = async (host: string) =>
      (answers[host] ?? []).map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
    const ex = executorFor(fetchTool({ allow: [], resolver }));
    expect(await refused('http://internal.test/', ex)).toContain(
      '(it resolves to 10.1.2.3): a private network address',
    );
    expect(await refused('http://metadata.test/', ex)).toContain('the cloud metadata address');
    expect(await refused('http://v6.test/', ex)).toContain('(it resolves to ::1)');
    expect(await refused('http://mixed.test/', ex)).toContain('(it resolves to 127.0.0.1)');
  });

  it('refuses a redirect to a private address even from an allowed host, before connecting to it', async () => {
    const ex = executorFor(fetchTool({ allow: ['localhost'] }));
    const via = `http://localhost:${server.port}/redirect?to=`;
    const before = server.hits.length;
    expect(await refused(via + encodeURIComponent(`${server.origin}/article`), ex)).toContain(
      'refusing to fetch 127.0.0.1',
    );
    expect(await refused(via + encodeURIComponent('http://10.0.0.1/admin'), ex)).toContain('10.0.0.1');
    expect(await refused(via + encodeURIComponent('http://169.254.169.254/latest/meta-data/'), ex)).toContain(
      'metadata',
    );
    expect(await refused(via + encodeURIComponent(`http://[::1]:${server.port}/article`), ex)).toContain('::1');
    expect(server.hits.slice(before).every((h) => h.startsWith('/redirect'))).toBe(true);
    const file = await fetchWith(ex, { url: via + encodeURIComponent('file:///etc/passwd') });
    expect(file.error?.message).toContain('only http and https URLs can be fetched');
  });

  it('lets a host listed in allowHosts through, by name or by address', async () => {
    const resolver = async () => [{ address: '127.0.0.1', family: 4 }];
    const byName = executorFor(fetchTool({ allow: ['*.internal.test'], resolver }));
    const r = await fetchWith(byName, { url: `http://wiki.internal.test:${server.port}/text` });
    expect(r.status, textOf(r)).toBe('success');
    expect(server.lastHeaders.host).toBe(`wiki.internal.test:${server.port}`);
    expect((await get('/text')).status).toBe('success');
  });
});
