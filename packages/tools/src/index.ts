export { WorkspaceGuard, type Access, type WorkspaceOptions } from './workspace/guard.js';
export { sensitiveReason } from './workspace/sensitive.js';
export { builtinTools, type BuiltinOptions } from './builtin.js';
