// How a language server is started: inside the sandbox's read-only profile (the whole file system
// read-only, a private /tmp, no network, secrets and toolbelt's own files hidden), with the
// environment scrubbed like a shell command's, and its program taken from a fixed place (a
// configured command by name never comes from the workspace or node_modules/.bin). A server reads
// the project and answers over stdio; it needs to write nothing the host keeps.
import { ToolError, type Workspace } from '@toolbelt/core';
import { accessSync, constants, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { spawnError } from '../errno.js';
import { TOOL_ENV_DEFAULT, toolEnv } from '../shell/child-env.js';
import { trustedProgram } from '../process/programs.js';
import type { Sandbox } from '../sandbox/sandbox.js';
import type { EnvSettings } from '../shell/env.js';
import type { ServerSpec } from './servers.js';

interface Launch {
  file: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  /** In its own pid namespace, where toolbelt's pid means nothing (or another process). */
  sandboxed?: boolean;
}

export type ServerWorkspace = Pick<Workspace, 'roots' | 'protectedPaths'>;

/** The command line and environment a server starts with. */
export type Launcher = (spec: ServerSpec, root: string, workspace: ServerWorkspace) => Promise<Launch>;

/** The error for a server that could not be started, the same whether spawn or the lookup found it missing. */
export function serverStartError(spec: ServerSpec, err: unknown): ToolError {
  return spawnError(
    err,
    `language server "${spec.name}" (${spec.command})`,
    'Install it, or fix its command in the lsp section of toolbelt.config.json.',
  );
}

function executable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

/** The server's program: a path as configured (the config is trusted), a name from a fixed place on PATH. */
function serverProgram(spec: ServerSpec): string {
  const file = spec.command.includes('/') ? resolve(spec.command) : trustedProgram(spec.command);
  if (!file || !executable(file))
    throw serverStartError(spec, Object.assign(new Error('not found'), { code: 'ENOENT' }));
  return file;
}

/** Servers in `sandbox` (which runs them as they are when its mode is off, or bubblewrap does not work in auto). */
export function sandboxedLauncher(sandbox: Sandbox, env: EnvSettings = TOOL_ENV_DEFAULT): Launcher {
  return async (spec, root, ws) => {
    const file = serverProgram(spec);
    // No resource limits: a language server holds a whole project in memory (tsserver takes GBs).
    const c = await sandbox.confine({
      roots: ws.roots,
      cwd: root,
      ...(ws.protectedPaths ? { protectedPaths: ws.protectedPaths } : {}),
      readOnly: true,
      network: false,
    });
    const inv = c.wrap({ file, args: [...spec.args] });
    return { file: inv.file, args: inv.args, env: toolEnv(env), ...(inv.sandboxed ? { sandboxed: true } : {}) };
  };
}

/** Without a sandbox (an LspPool made directly): the same program lookup and environment. */
export function unconfinedLauncher(env: EnvSettings = TOOL_ENV_DEFAULT): Launcher {
  return async (spec) => ({ file: serverProgram(spec), args: [...spec.args], env: toolEnv(env) });
}
