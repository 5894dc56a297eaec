// The composition root: builds from flags + toolbelt.config.json the one workspace, policy, registry
// and executor a command runs. Tool families plug in as providers (MCP servers join the same
// registry behind the same policy); front ends plug in approvers for the calls that come from them
// (the terminal's prompt here; MCP and the gateway on executor.approvals) and stores (the gateway
// database keeps "always" approvals and the execution log). What a config section means is its
// package's to say, next to its schema (core's executorOptionsFrom, policyOptionsFrom and
// toolSettingsFrom, tools' shellRulesFrom and workspaceOptionsFrom): this file only calls them.
import { join } from 'node:path';
import {
  ConfigError,
  executorOptionsFrom,
  Executor,
  Policy,
  policyOptionsFrom,
  toolSettingsFrom,
  ToolRegistry,
  type ApproversByOrigin,
  type DecisionStore,
  type ElicitorsByOrigin,
  type Tool,
} from '@toolbelt/core';
import type { StdioLauncher } from '@toolbelt/mcp';
import {
  builtinTools,
  Sandbox,
  sandboxSettings,
  shellRulesFrom,
  sweepLeftoverTemps,
  untrustedProgramDirs,
  WorkspaceGuard,
  workspaceOptionsFrom,
  type SandboxSettings,
} from '@toolbelt/tools';
import type { Env } from './config/dotenv.js';
import { CONFIG_FILE } from './config/load.js';
import type { ToolbeltConfig } from './config/schema.js';
import { ownFiles, planRuntime, type RuntimeFlags, type RuntimePlan } from './runtime-plan.js';
import { sandboxedLauncher } from './stdio-sandbox.js';
import { defaultDecisions, JsonlLogSink } from './stores.js';
import { toolConfigOf } from './tool-config.js';

export { CONFIG_FILE };
export { loadConfig, resolveMode, type RuntimeFlags, type RuntimePlan } from './runtime-plan.js';

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

/** The guard and the policy: each needs the other, the guard only once calls run. */
function guardAndPolicy(plan: RuntimePlan, decisions: DecisionStore): { workspace: WorkspaceGuard; policy: Policy } {
  const { config, roots } = plan;
  const workspace = configured(
    plan.configPath,
    'workspace',
    () =>
      new WorkspaceGuard({
        ...workspaceOptionsFrom(config.workspace, roots),
        allowSensitive: (path, _access, secret): boolean => policy.allowsSensitivePath(path, secret),
        protectedPaths: ownFiles(plan),
      }),
  );
  const policy = new Policy({
    // The tools package's shell.allow/deny go before the config's own rules.
    ...policyOptionsFrom(config, { mode: plan.mode, rules: shellRulesFrom(config.shell) }),
    store: decisions,
    // The guard's roots are real paths, as the paths rules are matched against.
    roots: workspace.roots,
  });
  return { workspace, policy };
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
  const withSettings = toolSettingsFrom(config.toolSettings);
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
    ...executorOptionsFrom(config),
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
