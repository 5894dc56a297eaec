import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT, fakeGoogle, type FakeGoogle } from '../../../integrations/src/__fixtures__/google.js';
import { json } from '../../../integrations/src/__fixtures__/server.js';
import { runMain } from '../__fixtures__/run-main.js';
import { useIsolatedState, writeTrustedConfig } from '../__fixtures__/trust.js';
import { main } from '../main.js';

let google: FakeGoogle;
const roots: string[] = [useIsolatedState()];

beforeAll(async () => {
  google = await fakeGoogle();
});
afterAll(async () => {
  await google.close();
  for (const r of roots) rmSync(r, { recursive: true, force: true });
});

function workspace(env: string): string {
  const root = mkdtempSync(join(tmpdir(), 'tb-auth-'));
  roots.push(root);
  writeFileSync(join(root, '.env'), env);
  writeTrustedConfig(root, {
    integrations: { google: { authUrl: google.endpoints.authUrl, tokenUrl: google.endpoints.tokenUrl } },
  });
  return root;
}

/** Runs `toolbelt auth google` and plays the browser: opens the printed address as soon as it appears. */
async function authGoogle(root: string): Promise<{ code: number; out: string; err: string }> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  let opened: Promise<unknown> | undefined;
  stdout.on('data', (d) => (out += d));
  stderr.on('data', (d) => {
    err += d;
    const url = /^ {2}(http\S+)$/m.exec(err)?.[1];
    if (url && !opened) opened = fetch(url);
  });
  const code = await main(['auth', 'google', '--root', root], {
    stdout,
    stderr,
    stdin: Readable.from(['']),
    interactive: false,
  });
  await opened;
  return { code, out, err };
}

describe('toolbelt auth google', () => {
  it('signs in with the client from the workspace .env and saves the tokens 0600', async () => {
    const root = workspace(`GOOGLE_CLIENT_ID=${CLIENT.clientId}\nGOOGLE_CLIENT_SECRET=${CLIENT.clientSecret}\n`);
    const r = await authGoogle(root);
    expect(r.err).toContain('Open this address in a browser and allow access:');
    expect(r.out).toBe(
      'Signed in to Google. Tokens saved in .toolbelt/google-tokens.json (mode 0600); the Gmail and Calendar tools are ready.\n',
    );
    expect(r.code).toBe(0);
    const file = join(root, '.toolbelt', 'google-tokens.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file, 'utf8')).refresh_token).toMatch(/^refresh-/);
  });

  it('leaves the workspace signed in: toolbelt call reaches Gmail with the saved token', async () => {
    const root = workspace(`GOOGLE_CLIENT_ID=${CLIENT.clientId}\nGOOGLE_CLIENT_SECRET=${CLIENT.clientSecret}\n`);
    writeTrustedConfig(root, { integrations: { google: google.endpoints, timeZone: 'UTC' } });
    expect((await authGoogle(root)).code).toBe(0);
    google.api = (req, res) => {
      if (req.url.pathname === '/gmail/v1/users/me/messages')
        return json(res, 200, { messages: [{ id: 'm9' }], resultSizeEstimate: 1 });
      json(res, 200, {
        id: 'm9',
        internalDate: '0',
        snippet: 'hi',
        payload: { headers: [{ name: 'Subject', value: 'Welcome' }] },
      });
    };
    const r = await runMain(['call', 'gmail_search', '{"query":"label:inbox"}', '--root', root]);
    expect(r.err).toBe('');
    expect(r.out).toContain('m9 | 1970-01-01 00:00 | (no sender) | Welcome | hi');
    expect(google.seen.at(-1)!.headers.authorization).toMatch(/^Bearer access-/);
  });

  it('signs out: revokes the grant at Google and deletes the tokens', async () => {
    const root = workspace(`GOOGLE_CLIENT_ID=${CLIENT.clientId}\nGOOGLE_CLIENT_SECRET=${CLIENT.clientSecret}\n`);
    writeTrustedConfig(root, { integrations: { google: google.endpoints } });
    expect((await authGoogle(root)).code).toBe(0);
    const refresh = JSON.parse(readFileSync(join(root, '.toolbelt', 'google-tokens.json'), 'utf8')).refresh_token;
    expect(google.refreshTokens.has(refresh)).toBe(true);
    const out = await runMain(['auth', 'google', '--sign-out', '--root', root]);
    expect(out.out).toBe('Signed out: Google revoked the grant, and .toolbelt/google-tokens.json is deleted.\n');
    expect(google.refreshTokens.has(refresh)).toBe(false);
    expect(existsSync(join(root, '.toolbelt', 'google-tokens.json'))).toBe(false);
    expect((await runMain(['auth', 'google', '--sign-out', '--root', root])).out).toBe(
      'Not signed in to Google here; nothing to do.\n',
    );
  });

  it('says how to get a client when none is set, and fails when the token endpoint refuses it', async () => {
    const none = await runMain(['auth', 'google', '--root', workspace('')]);
    expect(none.code).toBe(2);
    expect(none.err).toContain('GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET are not set');
    const wrong = await authGoogle(workspace(`GOOGLE_CLIENT_ID=${CLIENT.clientId}\nGOOGLE_CLIENT_SECRET=wrong\n`));
    expect(wrong.code).toBe(1);
    expect(wrong.err).toContain(
      'toolbelt auth google: Google refused the OAuth client (HTTP 401: Unauthorized); check GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET',
    );
  });

  it('refuses another service', async () => {
    const r = await runMain(['auth', 'github']);
    expect(r.code).toBe(2);
    expect(r.err).toContain('toolbelt auth google');
  });
});

describe('toolbelt tools', () => {
  it('lists what is off and what turns it on, and a Google that still needs signing in', async () => {
    const bare = await runMain(['tools', '--root', workspace('')]);
    expect(bare.out).toContain('linkedin_jobs');
    expect(bare.out).not.toMatch(/^gmail_send/m);
    expect(bare.out).toContain(
      [
        'Off, and what turns them on:',
        '  web_search',
        '    no search provider set up: set BRAVE_API_KEY or TAVILY_API_KEY, or SEARXNG_URL for a SearXNG instance (environment or the workspace .env), or web.braveApiKey / web.tavilyApiKey / web.searxngUrl',
        '  gmail_search, gmail_read, gmail_send, calendar_list_events, calendar_create_event, calendar_get_event',
        '    set GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET (environment or the workspace .env)',
        '  anthropic_usage',
        '    set ANTHROPIC_ADMIN_API_KEY (environment or the workspace .env)',
      ].join('\n'),
    );
    const google = await runMain([
      'tools',
      '--root',
      workspace('GOOGLE_CLIENT_ID=a\nGOOGLE_CLIENT_SECRET=b\nTAVILY_API_KEY=t\n'),
    ]);
    expect(google.out).toMatch(/^gmail_send +execute\* +Send a plain-text email/m);
    expect(google.out).toMatch(/^web_search /m);
    expect(google.out).toContain(
      'On, but not ready:\n  gmail_search, gmail_read, gmail_send, calendar_list_events, calendar_create_event, calendar_get_event\n    not signed in: run `toolbelt auth google`',
    );
  });
});
