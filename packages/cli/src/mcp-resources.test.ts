// The workspace as MCP resources, as `toolbelt mcp` serves it (official SDK client): file:// URIs
// of the files inside the root, listed in pages, read through the guard and the policy, and
// resources/updated sent when a subscribed file changes.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ToolServer } from '@toolbelt/mcp';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ResourceUpdatedNotificationSchema, type Resource } from '@modelcontextprotocol/sdk/types.js';
import { writeTrustedConfig } from './__fixtures__/trust.js';
import { mcpContent } from './mcp-resources.js';
import { createRuntime, type Runtime } from './runtime.js';

const root = realpathSync(mkdtempSync(join(tmpdir(), 'tb-resources-')));
const state = mkdtempSync(join(tmpdir(), 'tb-resources-state-'));
const uri = (rel: string) => pathToFileURL(join(root, rel)).href;
let rt: Runtime;
let server: ToolServer;
let client: Client;
const updated: string[] = [];

beforeAll(async () => {
  writeFileSync(join(root, 'README.md'), '# hello\n');
  writeFileSync(join(root, '.env'), 'KEY=secret\n');
  writeFileSync(join(root, '.gitignore'), 'build/\n');
  mkdirSync(join(root, 'build'));
  writeFileSync(join(root, 'build', 'out.js'), 'ignored\n');
  mkdirSync(join(root, 'private'));
  writeFileSync(join(root, 'private', 'plan.txt'), 'denied by a rule\n');
  mkdirSync(join(root, 'many'));
  for (let i = 0; i < 230; i++) writeFileSync(join(root, 'many', `f${String(i).padStart(3, '0')}.txt`), `file ${i}\n`);
  writeFileSync(join(root, 'bin.dat'), Buffer.from([0, 1, 2, 3, 0, 255]));
  const config = {
    rules: [{ tool: 'read_file', path: 'private/**', action: 'deny', reason: 'private/ is off limits' }],
  };
  writeTrustedConfig(root, config, { XDG_STATE_HOME: state });
  rt = await createRuntime({ root: [root] }, { env: { XDG_STATE_HOME: state }, warn: () => {} });
  server = new ToolServer({ executor: rt.executor, ...mcpContent(rt, undefined) });
  client = new Client({ name: 'c', version: '1' });
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void updated.push(n.params.uri));
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(a);
  await client.connect(b);
});

afterAll(async () => {
  await client.close();
  await server.close();
  await rt.close();
  rmSync(root, { recursive: true, force: true });
  rmSync(state, { recursive: true, force: true });
});

describe('workspace resources', () => {
  it('lists every file in pages, without ignored, protected or secret files', async () => {
    const all: Resource[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await client.listResources(cursor ? { cursor } : {});
      all.push(...page.resources);
      cursor = page.nextCursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(2);
    const names = all.map((r) => r.name);
    expect(names).toContain('README.md');
    expect(names).toContain('many/f229.txt');
    expect(names).not.toContain('.env');
    expect(names).not.toContain('build/out.js');
    expect(names).not.toContain('toolbelt.config.json');
    expect(all.find((r) => r.name === 'README.md')).toEqual({
      uri: uri('README.md'),
      name: 'README.md',
      mimeType: 'text/markdown',
    });
  });

  it('reads text as text and binary as a base64 blob', async () => {
    expect((await client.readResource({ uri: uri('README.md') })).contents).toEqual([
      { uri: uri('README.md'), mimeType: 'text/markdown', text: '# hello\n' },
    ]);
    expect((await client.readResource({ uri: uri('bin.dat') })).contents).toEqual([
      {
        uri: uri('bin.dat'),
        mimeType: 'application/octet-stream',
        blob: Buffer.from([0, 1, 2, 3, 0, 255]).toString('base64'),
      },
    ]);
  });

  it('refuses secrets, paths outside the root and paths a rule denies', async () => {
    await expect(client.readResource({ uri: uri('.env') })).rejects.toThrow(/protected/);
    await expect(client.readResource({ uri: pathToFileURL('/etc/hostname').href })).rejects.toThrow(/no resource/);
    await expect(client.readResource({ uri: uri('private/plan.txt') })).rejects.toThrow('private/ is off limits');
    await expect(client.readResource({ uri: uri('missing.txt') })).rejects.toMatchObject({ code: -32002 });
  });

  it('sends resources/updated when a subscribed file changes, and stops after unsubscribe', async () => {
    await client.subscribeResource({ uri: uri('README.md') });
    writeFileSync(join(root, 'README.md'), '# changed\n');
    for (let i = 0; i < 200 && !updated.length; i++) await new Promise((r) => setTimeout(r, 25));
    expect(updated).toEqual([uri('README.md')]);
    await client.unsubscribeResource({ uri: uri('README.md') });
    updated.length = 0;
    writeFileSync(join(root, 'README.md'), '# again\n');
    await new Promise((r) => setTimeout(r, 300));
    expect(updated).toEqual([]);
  });
});
