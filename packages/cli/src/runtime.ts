// The composition root: builds from flags + toolbelt.config.json the one workspace, policy, registry
// and executor a command runs. Tool families plug in as providers (MCP servers join the same
// registry behind the same policy); front ends plug in approvers for the calls that come from them
// (the terminal's prompt here; MCP and the gateway on executor.approvals) and stores (the gateway
// database keeps "always" approvals and the execution log).
import { isAbsolute, join, resolve } from 'node:path';
import {
  ConfigError,
  Executor,
  MODES,
  Policy,
  ToolRegistry,
  type ApproversByOrigin,
  type DecisionStore,
  type ElicitorsByOrigin,
  type Mode,
  type Rule,
  type Tool,
} from '@toolbelt/core';
import type { StdioLauncher } from '@toolbelt/mcp';
import {
  builtinTools,
  Sandbox,
  sandboxSettings,
  sweepLeftoverTemps,
  untrustedProgramDirs,
  WorkspaceGuard,
  type SandboxSettings,
} from '@toolbelt/tools';
import { UsageError } from './command.js';
import { canonicalMode, MODE_ALIASES } from './config/aliases.js';
import { withWorkspaceEnv, type Env } from './config/dotenv.js';
import { CONFIG_FILE } from './config/load.js';
import { loadTrustedConfig } from './config/open.js';
import { rootHolding } from './config/trust-store.js';
import type { ToolbeltConfig } from './config/schema.js';
import { approvalsPath, gatewayDbPath, isPostgresUrl, stateHome } from './state-paths.js';
import { sandboxedLauncher } from './stdio-sandbox.js';
import { defaultDecisions, JsonlLogSink } from './stores.js';
import { toolConfigOf } from './tool-config.js';
import { applyToolSettings } from './tool-settings.js';

export { CONFIG_FILE };

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
  /** <root>/.toolbelt: the execution log (saved approvals are kept outside the workspace: RuntimePlan.approvals). */
  stateDir: string;
  /** The gateway database: --db, else TOOLBELT_DB, else gateway.db, else under the user's state directory; or a postgres:// URL. */
  gatewayDb: string;
  workspace: WorkspaceGuard;
  policy: Policy;
  registry: ToolRegistry;
  /** Where shell commands and stdio MCP servers run. */
  sandbox: Sandbox;
  /** Starts stdio MCP servers inside the sandbox. */
  launchStdio: StdioLauncher;
  /** The config's toolSettings for one tool (undefined: disabled); providers apply it to tools they add later. */
  applyToolSettings(tool: Tool): Tool | undefined;
  /** The one executor: every front end of this process calls through it. */
  executor: Executor;
  /** <root>/.toolbelt/executions.jsonl, unless a front end keeps the log (RuntimeStores.keepsLog); front ends add their sinks on executor.logs. */
  log: JsonlLogSink | undefined;
  close(): Promise<void>;
}

/** A family of tools that needs the runtime to build them (MCP servers, declared tools). */
export type ToolProvider = (
  rt: Omit<Runtime, 'executor' | 'close'>,
) => Promise<{ tools: Tool[]; close?: () => Promise<void> }>;

/** What is known before anything is built: where a front end's own state goes. */
export interface RuntimePlan {
  config: ToolbeltConfig;
  configPath: string | undefined;
  roots: string[];
  mode: Mode;
  stateDir: string;
  gatewayDb: string;
  env: Record<string, string | undefined>;
  /**
   * Where the CLI saves "always" approvals: the root's directory under the user's state directory,
   * outside every root; undefined when that directory is inside a root (approvals then last one run).
   */
  approvals: string | undefined;
  /** The user's state directory as the real environment names it (never the workspace .env). */
  stateHome: string;
}

/** Stores a front end keeps state in, opened before the policy is built. */
export interface RuntimeStores {
  /** Where "always" approvals are kept; default RuntimePlan.approvals. */
  decisions?: DecisionStore;
  /**
   * The front end keeps the execution log itself (its sink joins executor.logs), so the runtime
   * writes no <root>/.toolbelt/executions.jsonl. The gateway does: every agent's calls stay in its
   * database, outside the workspace, where agents' commands cannot read them.
   */
  keepsLog?: boolean;
  /** Called by the runtime's close(), after the executor's. */
  close?(): Promise<void>;
}

export interface RuntimeOptions {
  /** Approvers by where a call came from (the terminal's prompt); a call from an origin without one is rejected. */
  approvers?: ApproversByOrigin;
  /** Who answers a tool's question (an MCP server's elicitation), by origin; a question from an origin without one is declined. */
  elicitors?: ElicitorsByOrigin;
  /** Opens a front end's stores once their paths are known. */
  stores?: (plan: RuntimePlan) => RuntimeStores | Promise<RuntimeStores>;
  providers?: ToolProvider[];
  env?: Record<string, string | undefined>;
  warn?: (line: string) => void;
}

/**
 * The config to run with and the roots. A config inside a root is refused (UntrustedConfigError)
 * unless `toolbelt trust` recorded its exact bytes; `env` is the real environment, never the workspace .env.
 */
export function loadConfig(
  flags: RuntimeFlags,
  env: Record<string, string | undefined> = process.env,
): { config: ToolbeltConfig; configPath: string | undefined; roots: string[] } {
  return loadTrustedConfig(flags, env);
}

/** --mode (our words or another design's), else the config's, else safe. */
export function resolveMode(flag: string | undefined, config: ToolbeltConfig): Mode {
  if (flag === undefined) return config.mode ?? 'safe';
  const mode = canonicalMode(flag);
  if (!mode)
    throw new UsageError(
      `unknown mode "${flag}"; use one of ${MODES.join(', ')} (or ${Object.keys(MODE_ALIASES).join(', ')}: see docs/configuration.md)`,
    );
  return mode;
}

/**
 * toolbelt's own files that its name rules (toolbelt.config.json, .toolbelt/) miss, wherever they
 * are: the --config file, the gateway database and its journals, the per-user state directory
 * (other roots' databases), and token files. The guard refuses them to every file tool.
 */
function ownFiles(plan: RuntimePlan): string[] {
  const { configPath, gatewayDb, config, env } = plan;
  const tokenFiles = (config.gateway?.tokens ?? []).flatMap((t) => (t.tokenFile ? [t.tokenFile] : []));
  return [
    ...(configPath ? [configPath] : []),
    ...(isPostgresUrl(gatewayDb) ? [] : ['', '-wal', '-shm', '-journal'].map((suffix) => gatewayDb + suffix)),
    ...new Set([stateHome(env), plan.stateHome]),
    ...tokenFiles.filter((f) => isAbsolute(f)),
    ...(env[TOKEN_FILE_ENV] && isAbsolute(env[TOKEN_FILE_ENV]) ? [env[TOKEN_FILE_ENV]] : []),
  ];
}

/** The sandbox section with its defaults, `~` expanded against the environment's HOME. */
export function sandboxConfig(config: ToolbeltConfig, env: Env): SandboxSettings {
  return sandboxSettings(config.sandbox, { env });
}

/** Builds what a config section describes; a value the schema let through but the world refuses (a root that is not there) is a config error. */
function configured<T>(configPath: string | undefined, section: string, build: () => T): T {
  try {
    return build();
  } catch (err) {
    throw new ConfigError(configPath ?? CONFIG_FILE, [`${section}: ${(err as Error).message}`]);
  }
}

/** The config's shell allow/deny prefix lists are rules like any other. */
function shellRules(config: ToolbeltConfig): Rule[] {
  const tools = ['shell_exec', 'shell_background'];
  return [
    ...(config.shell?.allow ?? []).map((command): Rule => ({
      tool: tools,
      command,
      action: 'allow',
      reason: 'shell.allow in config',
    })),
    ...(config.shell?.deny ?? []).map((command): Rule => ({
      tool: tools,
      command,
      action: 'deny',
      reason: 'shell.deny in config',
    })),
  ];
}

function planRuntime(flags: RuntimeFlags, env: Record<string, string | undefined>): RuntimePlan {
  const { config, configPath, roots } = loadConfig(flags, env);
  const mode = resolveMode(flags.mode, config);
  // toolbelt's own settings read the workspace's .env too; commands never see it.
  const ownEnv = withWorkspaceEnv(roots[0], env);
  const gatewayDb = gatewayDbPath(
    flags.db ?? (ownEnv.TOOLBELT_DB || undefined) ?? config.gateway?.db,
    roots[0],
    ownEnv,
  );
  // Trust and saved approvals follow the real environment: the workspace .env is the agent's to write.
  const home = stateHome(env);
  const allRoots = [...roots, ...(config.workspace?.roots ?? []).map((r) => resolve(roots[0], r))];
  const approvals = rootHolding(home, allRoots) ? undefined : approvalsPath(roots[0], env);
  return {
    config,
    configPath,
    roots,
    mode,
    stateDir: join(roots[0], '.toolbelt'),
    gatewayDb,
    env: ownEnv,
    approvals,
    stateHome: home,
  };
}

/** The guard and the policy: each needs the other, the guard only once calls run. */
function guardAndPolicy(plan: RuntimePlan, decisions: DecisionStore): { workspace: WorkspaceGuard; policy: Policy } {
  const { config, roots } = plan;
  const workspace = configured(
    plan.configPath,
    'workspace',
    () =>
      new WorkspaceGuard({
        roots: [...roots, ...(config.workspace?.roots ?? []).map((r) => resolve(roots[0], r))],
        ...(config.workspace?.cwd ? { cwd: config.workspace.cwd } : {}),
        allowSensitive: (path, _access, secret): boolean => policy.allowsSensitivePath(path, secret),
        protectedPaths: ownFiles(plan),
      }),
  );
  const policy = new Policy({
    mode: plan.mode,
    rules: [...shellRules(config), ...(config.rules ?? [])],
    hardDeny: config.hardDeny ?? [],
    store: decisions,
    // The guard's roots are real paths, as the paths rules are matched against.
    roots: workspace.roots,
  });
  return { workspace, policy };
}

/** The executor's settings from the config. */
function executorSettings(config: ToolbeltConfig) {
  const limits = config.limits ?? {};
  return {
    ...(limits.maxOutputChars ? { maxOutputChars: limits.maxOutputChars } : {}),
    ...(limits.defaultTimeoutMs ? { defaultTimeoutMs: limits.defaultTimeoutMs } : {}),
    ...(limits.approvalTimeoutMs ? { approvalTimeoutMs: limits.approvalTimeoutMs } : {}),
    ...(config.structuredText ? { structuredText: config.structuredText } : {}),
    ...(config.aliases === false ? { aliases: false } : {}),
    ...(config.log
      ? {
          logRedaction: {
            ...(config.log.redact ? { params: config.log.redact } : {}),
            ...(config.log.results === false ? { results: false } : {}),
          },
        }
      : {}),
  };
}

export async function createRuntime(flags: RuntimeFlags, opts: RuntimeOptions = {}): Promise<Runtime> {
  const plan = planRuntime(flags, opts.env ?? process.env);
  const stores = (await opts.stores?.(plan)) ?? {};
  try {
    return await assemble(plan, stores, opts);
  } catch (err) {
    await stores.close?.();
    throw err;
  }
}

async function assemble(plan: RuntimePlan, stores: RuntimeStores, opts: RuntimeOptions): Promise<Runtime> {
  const { config, configPath, stateDir, gatewayDb, env } = plan;
  const warn = opts.warn ?? ((line: string) => process.stderr.write(`${line}\n`));
  const { workspace, policy } = guardAndPolicy(plan, stores.decisions ?? defaultDecisions(plan, warn));
  // Before any program is looked up: none may come from a PATH entry inside a root.
  untrustedProgramDirs(workspace.roots);
  // Temp files of writes killed mid-way (a crash) are removed in the background, never blocking the start.
  void sweepLeftoverTemps(workspace.roots);
  const sandbox = new Sandbox(sandboxConfig(config, env), { warn });
  const launchStdio = sandboxedLauncher(sandbox, workspace);
  const withSettings = (tool: Tool) => applyToolSettings(tool, config.toolSettings);
  const enabled = (tools: Tool[]) => tools.flatMap((t) => withSettings(t) ?? []);
  const registry = new ToolRegistry().registerAll(enabled(builtinTools({ config, env, sandbox })));
  const builtins = new Set(registry.list().map((t) => t.name));
  const log = stores.keepsLog ? undefined : new JsonlLogSink(join(stateDir, 'executions.jsonl'));
  const partial = {
    config,
    configPath,
    env,
    stateDir,
    gatewayDb,
    workspace,
    policy,
    registry,
    sandbox,
    launchStdio,
    applyToolSettings: withSettings,
    log,
  };
  const closers: (() => Promise<void>)[] = [];
  for (const provider of opts.providers ?? []) {
    const { tools, close } = await provider(partial);
    registry.registerAll(enabled(tools));
    if (close) closers.push(close);
  }
  const executor = new Executor({
    registry,
    policy,
    workspace,
    ...(log ? { log } : {}),
    ...(opts.approvers ? { approvers: opts.approvers } : {}),
    ...(opts.elicitors ? { elicitors: opts.elicitors } : {}),
    ...executorSettings(config),
    toolConfig: toolConfigOf(config, builtins),
  });
  return {
    ...partial,
    executor,
    async close() {
      await executor.close();
      await Promise.allSettled(closers.map((c) => c()));
      await log?.flush();
      await stores.close?.();
    },
  };
}
