import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Executor, Policy, textOf, ToolRegistry } from '@toolbelt/core';
import { json, serve, type TestServer } from '../__fixtures__/server.js';
import { anthropicTools } from './index.js';

const KEY = 'sk-ant-admin01-test';
let api: TestServer;
let limited = 0;

// The Admin API's report shapes: buckets with results, paged by has_more / next_page.
const usagePage1 = {
  data: [
    {
      starting_at: '2025-05-01T00:00:00Z',
      ending_at: '2025-05-02T00:00:00Z',
      results: [
        {
          uncached_input_tokens: 1500,
          cache_creation: { ephemeral_1h_input_tokens: 100, ephemeral_5m_input_tokens: 400 },
          cache_read_input_tokens: 20000,
          output_tokens: 3000,
          server_tool_use: { web_search_requests: 0 },
          model: 'claude-sonnet-4-5',
          workspace_id: null,
          api_key_id: null,
          service_tier: null,
          context_window: null,
        },
      ],
    },
    { starting_at: '2025-05-02T00:00:00Z', ending_at: '2025-05-03T00:00:00Z', results: [] },
  ],
  has_more: true,
  next_page: 'page-2',
};
const usagePage2 = {
  data: [
    {
      starting_at: '2025-05-03T00:00:00Z',
      ending_at: '2025-05-04T00:00:00Z',
      results: [
        {
          uncached_input_tokens: 500,
          cache_creation: {},
          cache_read_input_tokens: 0,
          output_tokens: 1000,
          model: 'claude-haiku-4-5',
        },
      ],
    },
  ],
  has_more: false,
  next_page: null,
};
const cost = {
  data: [
    {
      starting_at: '2025-05-01T00:00:00Z',
      ending_at: '2025-05-02T00:00:00Z',
      results: [
        {
          currency: 'USD',
          amount: '1234.5',
          workspace_id: 'wrkspc_1',
          description: 'Claude Sonnet 4.5 Usage - Input Tokens',
        },
        { currency: 'USD', amount: '66', workspace_id: null, description: 'Web Search' },
      ],
    },
  ],
  has_more: false,
  next_page: null,
};
const claudeCode = {
  data: [
    {
      date: '2025-05-01T00:00:00Z',
      actor: { type: 'user_actor', email_address: 'dev@example.com' },
      organization_id: 'org',
      customer_type: 'api',
      terminal_type: 'vscode',
      core_metrics: {
        num_sessions: 4,
        lines_of_code: { added: 320, removed: 45 },
        commits_by_claude_code: 3,
        pull_requests_by_claude_code: 1,
      },
      tool_actions: {},
      model_breakdown: [
        {
          model: 'claude-sonnet-4-5',
          tokens: { input: 1, output: 2, cache_read: 0, cache_creation: 0 },
          estimated_cost: { currency: 'USD', amount: 512 },
        },
        {
          model: 'claude-haiku-4-5',
          tokens: { input: 1, output: 2, cache_read: 0, cache_creation: 0 },
          estimated_cost: { currency: 'USD', amount: 38 },
        },
      ],
    },
  ],
  has_more: false,
  next_page: null,
};

beforeAll(async () => {
  api = await serve((req, res) => {
    if (req.headers['x-api-key'] !== KEY)
      return json(res, 401, { type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key' } });
    if (req.headers['anthropic-version'] !== '2023-06-01')
      return json(res, 400, { type: 'error', error: { type: 'invalid_request_error', message: 'anthropic-version' } });
    if (limited > 0) {
      limited--;
      return json(
        res,
        429,
        { type: 'error', error: { type: 'rate_limit_error', message: 'Rate limited' } },
        { 'retry-after': '0' },
      );
    }
    const p = req.url.pathname;
    if (p === '/v1/organizations/usage_report/messages')
      return json(res, 200, req.url.searchParams.get('page') === 'page-2' ? usagePage2 : usagePage1);
    if (p === '/v1/organizations/cost_report') return json(res, 200, cost);
    if (p === '/v1/organizations/usage_report/claude_code') return json(res, 200, claudeCode);
    json(res, 404, { type: 'error', error: { type: 'not_found_error', message: 'Not found' } });
  });
});
afterAll(() => api.close());

const call = (input: object, key = KEY) => {
  const tools = anthropicTools({
    adminApiKey: key,
    baseUrl: `${api.origin}/v1/organizations`,
    retry: { baseDelayMs: 1 },
  });
  return new Executor({ registry: new ToolRegistry().registerAll(tools), policy: new Policy({ mode: 'safe' }) }).call({
    tool: 'anthropic_usage',
    input,
  });
};

describe('anthropic_usage', () => {
  it('tabulates token usage over every page, with totals', async () => {
    const r = await call({ action: 'usage', starting_at: '2025-05-01', ending_at: '2025-05-04', group_by: ['model'] });
    const q = api.seen.find((s) => s.url.pathname.endsWith('/messages'))!.url.searchParams;
    expect(q.get('starting_at')).toBe('2025-05-01T00:00:00Z');
    expect(q.get('bucket_width')).toBe('1d');
    expect(q.getAll('group_by[]')).toEqual(['model']);
    expect(api.seen.at(-1)!.url.searchParams.get('page')).toBe('page-2');
    expect(textOf(r)).toBe(
      [
        'Token usage from 2025-05-01T00:00:00Z to 2025-05-04T00:00:00Z, per 1d:',
        'bucket (UTC)  model              input  cache write  cache read  output',
        '------------  -----------------  -----  -----------  ----------  ------',
        '2025-05-01    claude-sonnet-4-5  1,500          500      20,000   3,000',
        '2025-05-03    claude-haiku-4-5     500            0           0   1,000',
        'total                            2,000          500      20,000   4,000',
      ].join('\n'),
    );
  });

  it('gives cost in USD, converted from cents', async () => {
    const r = await call({ action: 'cost', starting_at: '2025-05-01T00:00:00Z', group_by: ['description'] });
    expect(textOf(r)).toBe(
      [
        'Cost from 2025-05-01T00:00:00Z, in USD:',
        'day (UTC)   description                             amount_usd',
        '----------  --------------------------------------  ----------',
        '2025-05-01  Claude Sonnet 4.5 Usage - Input Tokens       12.35',
        '2025-05-01  Web Search                                    0.66',
        'total                                                    13.01',
      ].join('\n'),
    );
  });

  it('reports Claude Code activity for a day', async () => {
    const r = await call({ action: 'claude_code', starting_at: '2025-05-01' });
    expect(api.seen.at(-1)!.url.searchParams.get('starting_at')).toBe('2025-05-01');
    expect(textOf(r).split('\n')).toEqual([
      'Claude Code on 2025-05-01:',
      'date        actor            sessions  lines added  lines removed  commits  PRs  est. cost_usd',
      '----------  ---------------  --------  -----------  -------------  -------  ---  -------------',
      '2025-05-01  dev@example.com         4          320             45        3    1           5.50',
    ]);
  });

  it('refuses what the API would refuse, saying what works', async () => {
    const hourlyCost = await call({ action: 'cost', starting_at: '2025-05-01', bucket_width: '1h' });
    expect(hourlyCost.error?.message).toContain('the cost report has daily buckets only');
    const badGroup = await call({ action: 'cost', starting_at: '2025-05-01', group_by: ['model'] });
    expect(badGroup.error?.message).toContain('cost cannot be grouped by model; use workspace_id, description');
    const badDate = await call({ action: 'usage', starting_at: 'yesterday' });
    expect(badDate.error?.message).toContain('starting_at "yesterday" is neither a day');
  });

  it('names the key to check when it is refused, and waits out a 429', async () => {
    const bad = await call({ action: 'usage', starting_at: '2025-05-01' }, 'sk-ant-api-wrong');
    expect(bad.error?.code).toBe('PERMISSION_DENIED');
    expect(bad.error?.message).toBe(
      'the Anthropic Admin API refused the credentials (HTTP 401: invalid x-api-key); ask the user to check ANTHROPIC_ADMIN_API_KEY (an Admin key, sk-ant-admin…, from the Console)',
    );
    limited = 1;
    expect((await call({ action: 'claude_code', starting_at: '2025-05-01' })).status).toBe('success');
  });
});
