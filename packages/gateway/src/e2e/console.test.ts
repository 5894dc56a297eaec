// The web console's page and assets served from disk at /, and what the page reads besides the API.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type Harness } from '../__fixtures__/harness.js';
import type { GroupList, MetricsAnswer } from '@toolbelt/protocol';
import { errorOf } from '../__fixtures__/answers.js';

const ADMIN = 'admin-token-0123456789abcdef';
const PERSON = 'person-token-0123456789abcdef';
const config = {
  gateway: {
    tokens: [
      { name: 'ops', token: ADMIN, roles: ['admin' as const] },
      { name: 'husam', token: PERSON, roles: ['person' as const, 'approve' as const], agents: ['planner'] },
    ],
  },
};

describe('the console at /', () => {
  let h: Harness;
  let bare: Harness;
  let dir: string;
  const get = (path: string, token?: string, url = h.url) =>
    fetch(`${url}${path}`, token ? { headers: { authorization: `Bearer ${token}` } } : {});

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tb-console-dir-'));
    mkdirSync(join(dir, 'assets'));
    writeFileSync(
      join(dir, 'index.html'),
      '<!doctype html><title>toolbelt console</title><script type="module" src="/assets/app-1a2b.js"></script>',
    );
    writeFileSync(join(dir, 'assets', 'app-1a2b.js'), 'console.log("console");\n');
    writeFileSync(join(dir, 'secret.txt'), 'not an asset');
    h = await startGateway({
      config,
      consoleDir: dir,
      mcpServers: () => [
        { name: 'docs', state: 'connected', tools: 3 },
        { name: 'jira', state: 'failed', reason: 'connection refused' },
      ],
    });
    bare = await startGateway({ consoleDir: false });
  });
  afterAll(async () => {
    await h?.cleanup();
    await bare?.cleanup();
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves the page without a token, with a policy that loads nothing from elsewhere', async () => {
    const res = await get('/');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(await res.text()).toContain('toolbelt console');
  });

  it('serves hashed assets for a year, and nothing outside assets/', async () => {
    const asset = await get('/assets/app-1a2b.js');
    expect([asset.status, asset.headers.get('content-type'), asset.headers.get('cache-control')]).toEqual([
      200,
      'text/javascript; charset=utf-8',
      'public, max-age=31536000, immutable',
    ]);
    expect((await get('/assets/missing.js')).status).toBe(404);
    expect((await get('/assets/..%2fsecret.txt')).status).toBe(404);
    expect((await get('/secret.txt')).status).toBe(404);
  });

  it('checks the Origin of the page too', async () => {
    const res = await fetch(`${h.url}/`, { headers: { origin: 'http://evil.example' } });
    expect(res.status).toBe(403);
  });

  it('says how to build the console when it is not built', async () => {
    const res = await get('/', undefined, bare.url);
    expect(res.status).toBe(404);
    expect(await res.text()).toContain('npm run build');
  });

  it('GET /api/me names the token, its roles and agents', async () => {
    expect((await get('/api/me')).status).toBe(401);
    expect(await (await get('/api/me', PERSON)).json()).toEqual({
      name: 'husam',
      roles: ['person', 'approve'],
      agents: ['planner'],
      authEnabled: true,
    });
    expect(await (await get('/api/me', undefined, bare.url)).json()).toMatchObject({
      name: 'local',
      authEnabled: false,
    });
  });

  it('GET /api/metrics gives per-tool counts and percentiles to admins only', async () => {
    await h.client({ token: ADMIN }).call('run-m', 'echo', { text: 'm' });
    const m = (await (await get('/api/metrics', ADMIN)).json()) as MetricsAnswer;
    expect(m.tools.find((t) => t.tool === 'echo')).toMatchObject({ calls: 1, success: 1, errors: 0 });
    expect(m.callsByStatus.success).toBeGreaterThanOrEqual(1);
    const refused = await get('/api/metrics', PERSON);
    expect(refused.status).toBe(403);
    expect((await errorOf(refused)).message).toContain('"admin" role');
  });

  it('GET /api/groups lists the tool groups and the MCP servers with their state', async () => {
    const { groups, servers } = (await (await get('/api/groups', PERSON)).json()) as GroupList;
    expect(groups.flatMap((g) => g.tools)).toEqual(expect.arrayContaining(['echo', 'write_note']));
    expect(servers).toEqual([
      { name: 'docs', state: 'connected', tools: 3 },
      { name: 'jira', state: 'failed', reason: 'connection refused' },
    ]);
    const bareGroups = (await (await get('/api/groups', undefined, bare.url)).json()) as GroupList;
    expect(bareGroups.servers).toEqual([]);
  });
});
