// Builds what every command needs from flags + toolbelt.config.json: workspace, policy, registry,
// executor. Tool families plug in as providers, so MCP servers and declared tools join the same
// registry behind the same policy.
import { existsSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { ConfigError, Executor, MODES, Policy, rejectAll, ToolRegistry, type Approver, type Mode, type Rule, type Tool } from '@toolbelt/core';
import type { StdioLauncher } from '@toolbelt/mcp';
import { builtinTools, Sandbox, sandboxSettings, WorkspaceGuard, type SandboxSettings } from '@toolbelt/tools';
import { UsageError } from './command.js';
import { canonicalMode, MODE_ALIASES } from './config/aliases.js';
import { withWorkspaceEnv, type Env } from './config/dotenv.js';
import { readConfigFile } from './config/load.js';
import type { ToolbeltConfig } from './config/schema.js';
import { gatewayDbPath, stateHome } from './state-paths.js';
import { sandboxedLauncher } from './stdio-sandbox.js';
import { JsonDecisionStore, JsonlLogSink } from './stores.js';

export const CONFIG_FILE = 'toolbelt.config.json';

export interface RuntimeFlags {
  root?: string[];
  config?: string;
  mode?: string;
  /** The gateway database (toolbelt serve --db); kept from the file tools like the config. */
  db?: string;
}

/** The gateway's TOKEN_FILE_ENV, named here so that every command need not load the gateway. */
const TOKEN_FILE_ENV = 'TOOLBELT_GATEWAY_TOKEN_FILE';

export interface Runtime {
  config: ToolbeltConfig;
  configPath: string | undefined;
  /** What toolbelt's own settings read (keys, token variables): this process's environment over the workspace .env. */
  env: Env;
  /** <root>/.toolbelt: saved approvals and the execution log. */
  stateDir: string;
  /** The gateway database: --db, else gateway.db, else under the user's state directory. */
  gatewayDb: string;
  workspace: WorkspaceGuard;
  policy: Policy;
  registry: ToolRegistry;
  /** Where shell commands and stdio MCP servers run. */
  sandbox: Sandbox;
  /** Starts stdio MCP servers inside the sandbox. */
  launchStdio: StdioLauncher;
  executor: Executor;
  log: JsonlLogSink;
  close(): Promise<void>;
}

/** A family of tools that needs the runtime to build them (MCP servers, declared tools). */
export type ToolProvider = (rt: Omit<Runtime, 'executor' | 'close'>) => Promise<{ tools: Tool[]; close?: () => Promise<void> }>;

export function loadConfig(flags: RuntimeFlags): { config: ToolbeltConfig; configPath: string | undefined; roots: string[] } {
  const roots = (flags.root?.length ? flags.root : [process.cwd()]).map((r) => resolve(r));
  for (const r of roots) if (!existsSync(r)) throw new UsageError(`--root ${r} does not exist`);
  const configPath = flags.config ? resolve(flags.config) : join(roots[0], CONFIG_FILE);
  if (flags.config && !existsSync(configPath)) throw new UsageError(`--config ${configPath} does not exist`);
  const config = existsSync(configPath) ? readConfigFile(configPath) : {};
  return { config, configPath: existsSync(configPath) ? configPath : undefined, roots };
}

/** --mode (our words or another design's), else the config's, else safe. */
export function resolveMode(flag: string | undefined, config: ToolbeltConfig): Mode {
  if (flag === undefined) return config.mode ?? 'safe';
  const mode = canonicalMode(flag);
  if (!mode) throw new UsageError(`unknown mode "${flag}"; use one of ${MODES.join(', ')} (or ${Object.keys(MODE_ALIASES).join(', ')}: see docs/configuration.md)`);
  return mode;
}

/**
 * toolbelt's own files that its name rules (toolbelt.config.json, .toolbelt/) miss, wherever they
 * are: the --config file, the gateway database and its journals, the per-user state directory
 * (other roots' databases), and token files. The guard refuses them to every file tool.
 */
function ownFiles(configPath: string | undefined, gatewayDb: string, config: ToolbeltConfig, env: Env): string[] {
  const tokenFiles = (config.gateway?.tokens ?? []).flatMap((t) => (t.tokenFile ? [t.tokenFile] : []));
  return [
    ...(configPath ? [configPath] : []),
    ...['', '-wal', '-shm', '-journal'].map((suffix) => gatewayDb + suffix),
    stateHome(env),
    ...tokenFiles.filter((f) => isAbsolute(f)),
    ...(env[TOKEN_FILE_ENV] && isAbsolute(env[TOKEN_FILE_ENV]) ? [env[TOKEN_FILE_ENV]] : []),
  ];
}

/** The sandbox section with its defaults, `~` expanded against the environment's HOME. */
export function sandboxConfig(config: ToolbeltConfig, env: Env): SandboxSettings {
  return sandboxSettings(config.sandbox, { env });
}

/** The config's shell allow/deny prefix lists are rules like any other. */
function shellRules(config: ToolbeltConfig): Rule[] {
  const tools = ['shell_exec', 'shell_background'];
  return [
    ...(config.shell?.allow ?? []).map((command): Rule => ({ tool: tools, command, action: 'allow', reason: 'shell.allow in config' })),
    ...(config.shell?.deny ?? []).map((command): Rule => ({ tool: tools, command, action: 'deny', reason: 'shell.deny in config' })),
  ];
}

/** Applies toolSettings: a disabled tool is left out; timeouts, retries and cache TTLs override. */
function applySettings(tools: Tool[], config: ToolbeltConfig): Tool[] {
  const settings = config.toolSettings ?? {};
  const out: Tool[] = [];
  for (const tool of tools) {
    const s = settings[tool.name];
    if (!s) {
      out.push(tool);
      continue;
    }
    if (s.enabled === false) continue;
    out.push(Object.freeze({ ...tool, ...(s.timeoutMs ? { timeoutMs: s.timeoutMs } : {}), ...(s.retry ? { retry: s.retry } : {}), ...(s.cacheTtlMs !== undefined ? { cacheTtlMs: s.cacheTtlMs } : {}) }));
  }
  return out;
}

/** Builds what a config section describes; a value the schema let through but the world refuses (a root that is not there) is a config error. */
function configured<T>(configPath: string | undefined, section: string, build: () => T): T {
  try {
    return build();
  } catch (err) {
    throw new ConfigError(configPath ?? CONFIG_FILE, [`${section}: ${(err as Error).message}`]);
  }
}

export async function createRuntime(
  flags: RuntimeFlags,
  opts: { approver?: Approver; providers?: ToolProvider[]; env?: Record<string, string | undefined>; warn?: (line: string) => void } = {},
): Promise<Runtime> {
  const { config, configPath, roots } = loadConfig(flags);
  const mode = resolveMode(flags.mode, config);
  const env = withWorkspaceEnv(roots[0], opts.env ?? process.env);
  const stateDir = join(roots[0], '.toolbelt');
  const gatewayDb = gatewayDbPath(flags.db ?? config.gateway?.db, roots[0], env);
  const policy = new Policy({
    mode,
    rules: [...shellRules(config), ...(config.rules ?? [])],
    hardDeny: config.hardDeny ?? [],
    store: new JsonDecisionStore(join(stateDir, 'approvals.json')),
  });
  const workspace = configured(configPath, 'workspace', () => new WorkspaceGuard({
    roots: [...roots, ...(config.workspace?.roots ?? []).map((r) => resolve(roots[0], r))],
    ...(config.workspace?.cwd ? { cwd: config.workspace.cwd } : {}),
    allowSensitive: (path, _access, secret) => policy.allowsSensitivePath(path, secret),
    protectedPaths: ownFiles(configPath, gatewayDb, config, env),
  }));
  (policy as { roots: readonly string[] }).roots = workspace.roots;

  const sandbox = new Sandbox(sandboxConfig(config, env), { warn: opts.warn ?? ((line) => process.stderr.write(`${line}\n`)) });
  const launchStdio = sandboxedLauncher(sandbox, workspace);
  const registry = new ToolRegistry();
  registry.registerAll(applySettings(builtinTools({ config, env, sandbox }), config));
  const log = new JsonlLogSink(join(stateDir, 'executions.jsonl'));
  const partial = { config, configPath, env, stateDir, gatewayDb, workspace, policy, registry, sandbox, launchStdio, log };
  const closers: (() => Promise<void>)[] = [];
  for (const provider of opts.providers ?? []) {
    const { tools, close } = await provider(partial);
    registry.registerAll(applySettings(tools, config));
    if (close) closers.push(close);
  }
  const executor = new Executor({
    registry,
    policy,
    approver: opts.approver ?? rejectAll,
    workspace,
    log,
    ...(config.limits?.maxOutputChars ? { maxOutputChars: config.limits.maxOutputChars } : {}),
    ...(config.limits?.defaultTimeoutMs ? { defaultTimeoutMs: config.limits.defaultTimeoutMs } : {}),
    ...(config.limits?.approvalTimeoutMs ? { approvalTimeoutMs: config.limits.approvalTimeoutMs } : {}),
  });
  return {
    ...partial,
    executor,
    async close() {
      await executor.close();
      await Promise.allSettled(closers.map((c) => c()));
      await log.flush();
    },
  };
}
