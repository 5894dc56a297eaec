// stdio MCP servers run in the same sandbox as shell commands: the workspace roots writable, the
// rest read-only, secrets and toolbelt's own files hidden, the network only for a server whose
// config (or sandbox.network: true) allows it, and the sandbox's limits under the server's own.
import type { StdioLauncher } from '@toolbelt/mcp';
import { commandFound, commandNotFoundError, execInvocation, type Sandbox, type WorkspaceGuard } from '@toolbelt/tools';

export function sandboxedLauncher(sandbox: Sandbox, workspace: WorkspaceGuard): StdioLauncher {
  return async (_server, cfg) => {
    // Through bash and the sandbox a missing program is only exit 127: fail as spawn would, with ENOENT.
    const command = cfg.command!;
    if (!commandFound(command, cfg.env?.PATH ?? process.env.PATH, cfg.cwd)) throw commandNotFoundError(command);
    const limits = sandbox.limits || cfg.limits ? { ...sandbox.limits, ...cfg.limits } : undefined;
    // No cwd: bubblewrap keeps the one the server is spawned in, which is visible inside when it is in a root.
    const c = await sandbox.confine(
      { roots: workspace.roots, protectedPaths: workspace.protectedPaths, readOnly: false, network: cfg.network ?? sandbox.settings.network === true },
      limits,
    );
    const inv = c.wrap(execInvocation(command, cfg.args ?? [], c.limits));
    return { command: inv.file, args: inv.args };
  };
}
