// @toolbelt/core/classic: the classic Tool API (Tool, BaseTool, ToolRegistry with getTool and
// getAllDefinitions, confirmation modes none/safe/all) as a typed face over the contract.
export type {
  Tool,
  ToolDefinition,
  ToolConfirmation,
  ToolExecutionOptions,
  ToolExecutionResult,
  ValidationResult,
} from './types.js';
export { BaseTool } from './base-tool.js';
export { ToolRegistry } from './registry.js';
export {
  classicFace,
  classificationOf,
  toContractTool,
  toExecutionResult,
  DEFAULT_CLASSIC_EFFECT,
  type FaceRunner,
} from './adapt.js';
export { Policy, type PolicyOptions } from '../policy/policy.js';
export { Executor, type CallRequest, type ExecutorOptions } from '../executor/executor.js';
export type { ModeAlias, Mode } from '../policy/types.js';
