// `toolbelt auth google`: signs the workspace in to Google for the Gmail and Calendar tools (OAuth
// 2.0 with PKCE and a loopback redirect). The tokens go to <root>/.toolbelt/google-tokens.json, 0600.
import { spawn } from 'node:child_process';
import { join, relative } from 'node:path';
import { GOOGLE_ENDPOINTS, googleCredentials, signIn, SignInError, signOut, TokenStore } from '@toolbelt/integrations';
import { EXIT, UsageError, type Command, type Io } from '../command.js';
import { withWorkspaceEnv } from '../config/dotenv.js';
import { loadConfig } from '../runtime.js';

const USAGE = `Usage: toolbelt auth google [--root DIR] [--config FILE] [--no-browser] [--sign-out]

Signs in to Google for gmail_* and calendar_* tools. Needs GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET
(environment or the workspace .env) of an OAuth client of type "Desktop app".
  --sign-out  revoke the grant at Google and delete the saved tokens`;

const NO_CLIENT =
  'GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET are not set. In Google Cloud Console enable the Gmail and Calendar APIs, create an OAuth client of type "Desktop app" (APIs & Services > Credentials), and put both values in the workspace .env';

/** Tries the desktop's opener; the address is printed either way, so a failure needs no word. */
function openBrowser(url: string): void {
  const [cmd, args] =
    process.platform === 'darwin'
      ? ['open', [url]]
      : process.platform === 'win32'
        ? ['cmd', ['/c', 'start', '', url]]
        : ['xdg-open', [url]];
  try {
    spawn(cmd, args, { stdio: 'ignore', detached: true })
      .on('error', () => {})
      .unref();
  } catch {
    // no opener: the printed address is enough
  }
}

async function signOutGoogle(root: string, store: TokenStore, revokeUrl: string, io: Io): Promise<number> {
  const r = await signOut(store, revokeUrl, new AbortController().signal);
  if (!r.hadTokens) {
    io.stdout.write('Not signed in to Google here; nothing to do.\n');
    return EXIT.ok;
  }
  if (r.revoked === true) {
    io.stdout.write(`Signed out: Google revoked the grant, and ${relative(root, store.path)} is deleted.\n`);
    return EXIT.ok;
  }
  io.stderr.write(
    `toolbelt auth google: deleted ${relative(root, store.path)}, but Google did not confirm the revocation (${r.revoked}); remove toolbelt at https://myaccount.google.com/permissions\n`,
  );
  return EXIT.toolError;
}

async function signInGoogle(values: Record<string, unknown>, io: Io): Promise<number> {
  const { config, roots } = loadConfig(values);
  const endpoints = { ...GOOGLE_ENDPOINTS, ...config.integrations?.google };
  const store = TokenStore.in(join(roots[0], '.toolbelt'));
  if (values['sign-out']) return signOutGoogle(roots[0], store, endpoints.revokeUrl, io);
  const env = withWorkspaceEnv(roots[0], process.env);
  const credentials = googleCredentials(env);
  if (!credentials) throw new UsageError(NO_CLIENT);
  try {
    await signIn({
      credentials,
      store,
      authUrl: endpoints.authUrl,
      tokenUrl: endpoints.tokenUrl,
      open: (url) => {
        io.stderr.write(
          `Open this address in a browser and allow access:\n\n  ${url}\n\nWaiting for the browser (5 minutes)...\n`,
        );
        if (io.interactive && !values['no-browser']) openBrowser(url);
      },
    });
  } catch (err) {
    if (!(err instanceof SignInError) && (err as Error).name !== 'ToolError') throw err;
    io.stderr.write(`toolbelt auth google: ${(err as Error).message}\n`);
    return EXIT.toolError;
  }
  io.stdout.write(
    `Signed in to Google. Tokens saved in ${relative(roots[0], store.path)} (mode 0600); the Gmail and Calendar tools are ready.\n`,
  );
  return EXIT.ok;
}

export const authCommand: Command = {
  name: 'auth',
  usage: USAGE,
  options: {
    root: { type: 'string', multiple: true },
    config: { type: 'string' },
    'no-browser': { type: 'boolean' },
    'sign-out': { type: 'boolean' },
  },
  positionals: true,
  async run(values, positionals, io) {
    const [service, ...extra] = positionals;
    if (service !== 'google' || extra.length)
      throw new UsageError(`say which service to sign in to: toolbelt auth google\n${USAGE}`);
    return signInGoogle(values, io);
  },
};
