// `toolbelt mcp login SERVER`: signs in to an http MCP server of the config with OAuth (browser
// flow, loopback redirect); the tokens go to <root>/.toolbelt/oauth/SERVER.json, mode 0600.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { login } from '@toolbelt/mcp';
import { EXIT, UsageError, type Io } from '../command.js';
import { loadConfig } from '../runtime.js';

/** Best effort: the URL is printed too, for a machine without a browser. */
function openBrowser(url: URL): void {
  const opener = process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer' : 'xdg-open';
  const child = spawn(opener, [url.href], { detached: true, stdio: 'ignore' });
  child.on('error', () => {});
  child.unref();
}

function portOption(raw: unknown): number | undefined {
  if (raw === undefined) return undefined;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 1 || port > 65535)
    throw new UsageError(`--port must be a port number from 1 to 65535, not "${String(raw)}"`);
  return port;
}

export async function mcpLogin(values: Record<string, unknown>, name: string | undefined, io: Io): Promise<number> {
  const { config, roots } = loadConfig(values);
  const servers = config.mcpServers ?? {};
  const configured = Object.keys(servers);
  if (!name)
    throw new UsageError(
      `name the server to sign in to: toolbelt mcp login SERVER (configured: ${configured.join(', ') || 'none'})`,
    );
  const server = servers[name];
  if (!server)
    throw new UsageError(`no MCP server named "${name}" in mcpServers; configured: ${configured.join(', ') || 'none'}`);
  if (!server.url) throw new UsageError(`MCP server "${name}" is a stdio server; only http and sse servers sign in`);
  const port = portOption(values.port);
  const dir = join(roots[0], '.toolbelt', 'oauth');
  await login({
    server: name,
    config: server,
    dir,
    ...(port ? { port } : {}),
    open: (url) => {
      io.stderr.write(
        `Open this page to sign in to "${name}":\n  ${url.href}\nWaiting for the browser to come back...\n`,
      );
      if (!values['no-browser']) openBrowser(url);
    },
  }).catch((err: Error) => {
    throw new UsageError(`signing in to "${name}" failed: ${err.message}`);
  });
  io.stderr.write(`Signed in to "${name}". Tokens saved in ${join(dir, `${name}.json`)} (readable by you alone).\n`);
  return EXIT.ok;
}
