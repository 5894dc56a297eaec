import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { listGroups, ToolRegistry } from '@toolbelt/core';
import { integrationTools } from './index.js';
import { TokenStore } from './google/tokens.js';

const dir = mkdtempSync(join(tmpdir(), 'tb-integrations-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const names = (env: Record<string, string>) => integrationTools({ env, stateDir: dir }).tools.map((t) => t.name);

describe('which integrations are registered', () => {
  it('registers LinkedIn always, and nothing else without credentials, saying what turns each on', () => {
    const { tools, status } = integrationTools({ env: {}, stateDir: dir });
    expect(tools.map((t) => t.name)).toEqual(['linkedin_jobs', 'linkedin_job_detail']);
    expect(status).toEqual([
      { name: 'linkedin', tools: ['linkedin_jobs', 'linkedin_job_detail'], on: true },
      {
        name: 'google',
        tools: [
          'gmail_search',
          'gmail_read',
          'gmail_send',
          'calendar_list_events',
          'calendar_create_event',
          'calendar_get_event',
        ],
        on: false,
        note: 'set GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET (environment or the workspace .env)',
      },
      {
        name: 'anthropic',
        tools: ['anthropic_usage'],
        on: false,
        note: 'set ANTHROPIC_ADMIN_API_KEY (environment or the workspace .env)',
      },
    ]);
  });

  it('needs both Google client values, and says to sign in until tokens are saved', async () => {
    expect(names({ GOOGLE_CLIENT_ID: 'id' })).not.toContain('gmail_send');
    expect(names({ GOOGLE_CLIENT_ID: 'id', GOOGLE_CLIENT_SECRET: ' ' })).not.toContain('gmail_send');
    const on = integrationTools({ env: { GOOGLE_CLIENT_ID: 'id', GOOGLE_CLIENT_SECRET: 's' }, stateDir: dir });
    expect(on.tools.map((t) => t.name)).toContain('calendar_get_event');
    expect(on.status[1]).toMatchObject({ on: true, note: 'not signed in: run `toolbelt auth google`' });
    await TokenStore.in(dir).save({ access_token: 'a', expires_at: 1 });
    expect(
      integrationTools({ env: { GOOGLE_CLIENT_ID: 'id', GOOGLE_CLIENT_SECRET: 's' }, stateDir: dir }).status[1].note,
    ).toBeUndefined();
  });

  it('registers anthropic_usage with an Admin key', () => {
    expect(names({ ANTHROPIC_ADMIN_API_KEY: 'sk-ant-admin01-x' })).toEqual([
      'linkedin_jobs',
      'linkedin_job_detail',
      'anthropic_usage',
    ]);
  });

  it('puts each service in a group of its own', () => {
    const { tools } = integrationTools({
      env: { GOOGLE_CLIENT_ID: 'id', GOOGLE_CLIENT_SECRET: 's', ANTHROPIC_ADMIN_API_KEY: 'k' },
      stateDir: dir,
    });
    const groups = listGroups(new ToolRegistry().registerAll(tools));
    expect(groups.map((g) => [g.name, g.tools.length])).toEqual([
      ['anthropic', 1],
      ['calendar', 3],
      ['gmail', 3],
      ['linkedin', 2],
    ]);
    expect(groups.find((g) => g.name === 'gmail')?.summary).toBe('search, read and send mail');
  });
});
