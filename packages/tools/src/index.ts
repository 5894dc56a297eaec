export { WorkspaceGuard, type Access, type WorkspaceOptions } from './workspace/guard.js';
export { sensitiveReason } from './workspace/sensitive.js';
export { builtinTools, type BuiltinOptions } from './builtin.js';
export { shellTools, classifyCommand, loadBashParser, type ShellToolsOptions, type ShellSettings } from './shell/index.js';
export { gitTools } from './git/index.js';
export { createLsp, lspTools, LspPool, serverSpecs, type Lsp, type LspOptions, type LspConfigEntry, type ServerSpec } from './lsp/index.js';
export { webTools, webFetchTool, webSearchTool, BraveSearchProvider, HostPolicy, blockedAddress, type WebOptions, type WebConfig, type SearchProvider, type SearchResult } from './web/index.js';
export { fsTools, readFile, writeFile, editFile, appendFile, deleteFile, listDirectory, createDirectory, copyFile, moveFile } from './fs/index.js';
export { searchTools, createGrep, glob, globFiles, findRg, runGrep, type SearchSettings } from './search/index.js';
