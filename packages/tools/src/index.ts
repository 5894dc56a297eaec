export { WorkspaceGuard, type Access, type WorkspaceOptions } from './workspace/guard.js';
export { sensitiveReason } from './workspace/sensitive.js';
export { builtinTools, type BuiltinOptions } from './builtin.js';
export { shellTools, classifyCommand, loadBashParser, type ShellToolsOptions, type ShellSettings } from './shell/index.js';
