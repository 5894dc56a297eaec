export { WorkspaceGuard, type Access, type WorkspaceOptions } from './workspace/guard.js';
export { sensitiveReason } from './workspace/sensitive.js';
export { builtinTools, type BuiltinOptions } from './builtin.js';
export { createBuiltinTools, type ClassicBuiltinOptions } from './classic.js';
export { BUILTIN_ALIASES, withAliases } from './aliases/index.js';
export {
  shellTools,
  classifyCommand,
  loadBashParser,
  shellSection,
  shellRulesFrom,
  type ShellToolsOptions,
  type ShellSettings,
  type ShellSection,
} from './shell/index.js';
export { gitTools } from './git/index.js';
export {
  createLsp,
  lspTools,
  LspPool,
  serverSpecs,
  lspSection,
  type Lsp,
  type LspOptions,
  type LspConfigEntry,
  type ServerSpec,
} from './lsp/index.js';
export {
  webTools,
  webSection,
  webFetchTool,
  webSearchTool,
  BraveSearchProvider,
  TavilySearchProvider,
  SearxngSearchProvider,
  chooseSearchProvider,
  searchOffReason,
  SEARCH_KEY_HINT,
  HostPolicy,
  blockedAddress,
  type WebOptions,
  type WebConfig,
  type SearchProvider,
  type SearchResult,
} from './web/index.js';
export { sweepLeftoverTemps } from './text/leftovers.js';
export {
  fsTools,
  readFile,
  writeFile,
  editFile,
  appendFile,
  deleteFile,
  listDirectory,
  createDirectory,
  copyFile,
  moveFile,
} from './fs/index.js';
export {
  searchTools,
  searchSection,
  createGrep,
  glob,
  globFiles,
  findRg,
  runGrep,
  type SearchSettings,
} from './search/index.js';
export {
  Sandbox,
  sandboxSettings,
  sandboxSection,
  probeSandbox,
  bwrapVersion,
  findProgram,
  SANDBOX_LIMITS_DEFAULT,
  HIDDEN_DEFAULT,
  type SandboxSettings,
  type SandboxSection,
  type SandboxMode,
  type SandboxStatus,
  type Confinement,
} from './sandbox/index.js';
export { execInvocation, type ResourceLimits, type Invocation } from './process/limits.js';
export { commandFound, commandNotFoundError } from './process/command-found.js';
export {
  programChoice,
  programChoices,
  programPath,
  trustedProgram,
  untrustedProgramDirs,
  untrustedDirReason,
  type ProgramChoice,
} from './process/programs.js';
export { toolsConfigShape, parseToolsConfig, type ToolsConfig } from './config.js';
export { workspaceSection, workspaceOptionsFrom, type WorkspaceSection } from './workspace/section.js';
export {
  WorkspaceResources,
  type WorkspaceResource,
  type ResourceContents,
  type WorkspaceResourcesOptions,
} from './resources/workspace-resources.js';
