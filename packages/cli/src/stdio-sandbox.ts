// stdio MCP servers run in the same sandbox as shell commands: the workspace roots writable, the
// rest read-only, secrets and toolbelt's own files hidden, the network only for a server whose
// config (or sandbox.network: true) allows it, and the sandbox's limits under the server's own.
// A server started through npx gets its package fetched first (package-runner.ts).
import type { McpServerConfig, StdioLauncher } from '@toolbelt/mcp';
import { commandFound, commandNotFoundError, execInvocation, type Sandbox, type WorkspaceGuard } from '@toolbelt/tools';
import { execFetcher, fetchArgs, PackageCache, packageRun, packageRunnerEnv, type Fetcher } from './package-runner.js';

export interface LauncherOptions {
  cache?: PackageCache;
  fetcher?: Fetcher;
}

export function sandboxedLauncher(
  sandbox: Sandbox,
  workspace: WorkspaceGuard,
  opts: LauncherOptions = {},
): StdioLauncher {
  const cache = opts.cache ?? new PackageCache();
  const fetcher = opts.fetcher ?? execFetcher;
  return async (server, cfg) => {
    // Through bash and the sandbox a missing program is only exit 127: fail as spawn would, with ENOENT.
    const command = cfg.command!;
    if (!commandFound(command, cfg.env?.PATH ?? process.env.PATH, cfg.cwd)) throw commandNotFoundError(command);
    const limits = sandbox.limits || cfg.limits ? { ...sandbox.limits, ...cfg.limits } : undefined;
    const network = cfg.network ?? sandbox.settings.network === true;
    const pkg = packageRun(command, cfg.args ?? []);
    const writable = pkg ? [cache.ready()] : [];
    const confine = (net: boolean) =>
      sandbox.confine(
        { roots: workspace.roots, protectedPaths: workspace.protectedPaths, readOnly: false, network: net, writable },
        limits,
      );
    let env: Record<string, string> | undefined;
    if (pkg) {
      env = packageRunnerEnv(cache.dir);
      // Fetched with the network (npm runs no package code: --ignore-scripts, and /bin/true as the command).
      const f = await confine(true);
      const inv = f.wrap(execInvocation('npm', fetchArgs(pkg.spec), f.limits));
      await cache.fetch(pkg.spec, () => fetcher(inv.file, inv.args, env!));
      if (!network) env.npm_config_offline = 'true';
    }
    // No cwd: bubblewrap keeps the one the server is spawned in, which is visible inside when it is in a root.
    const c = await confine(network);
    const inv = c.wrap(execInvocation(command, cfg.args ?? [], c.limits));
    return {
      command: inv.file,
      args: inv.args,
      ...(env ? { env } : {}),
      ...(c.profile === 'none' ? {} : { hint: sandboxHint(server, cfg, network) }),
    };
  };
}

/** What a server that did not answer is up against in the sandbox, and the keys that change it. */
function sandboxHint(server: string, cfg: McpServerConfig, network: boolean): string {
  const net = network ? '' : `no network (set mcpServers.${server}.network to true if it needs one), `;
  return `it runs in toolbelt's sandbox with ${net}only the workspace writable (sandbox.writable adds directories)${cfg.connectTimeoutMs ? '' : `; a slow start needs mcpServers.${server}.connectTimeoutMs`}`;
}
