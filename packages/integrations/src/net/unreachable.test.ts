// A service that cannot be reached: the tools say where they went and why, not "fetch failed".
import { createServer, type AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { Executor, Policy, textOf, ToolRegistry, type Tool } from '@toolbelt/core';
import { anthropicTools } from '../anthropic/index.js';
import { linkedinTools } from '../linkedin/index.js';

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

function call(tools: Tool[], tool: string, input: Record<string, unknown>) {
  return new Executor({ registry: new ToolRegistry().registerAll(tools), policy: new Policy({ mode: 'safe' }) }).call({
    tool,
    input,
  });
}

describe('a service that is not there', () => {
  it('linkedin_jobs names the URL and the refused connection', async () => {
    const origin = `http://127.0.0.1:${await closedPort()}`;
    const r = await call(linkedinTools({ baseUrl: origin, retry: { attempts: 0 } }), 'linkedin_jobs', {
      keywords: 'rust',
    });
    expect(r.status).toBe('error');
    expect(textOf(r)).toContain(
      `could not reach LinkedIn at ${origin}/jobs-guest/jobs/api/seeMoreJobPostings/search: connection refused (ECONNREFUSED)`,
    );
    expect(textOf(r)).not.toContain('fetch failed');
  });

  it('anthropic_usage names a host that does not resolve', async () => {
    const tools = anthropicTools({
      adminApiKey: 'sk-ant-admin01-x',
      baseUrl: 'http://no-such-host.invalid/v1/organizations',
      retry: { attempts: 0 },
    });
    const r = await call(tools, 'anthropic_usage', { action: 'usage', starting_at: '2025-05-01' });
    expect(r.status).toBe('error');
    expect(textOf(r)).toMatch(
      /could not reach the Anthropic Admin API at http:\/\/no-such-host\.invalid\/v1\/organizations\/\S+: .*\((ENOTFOUND|EAI_AGAIN)\)/,
    );
  });
});
