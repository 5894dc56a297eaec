// @toolbelt/core, the kernel: the tool contract, results, the registry and its groups, policy,
// approval and the executor, and the config parts every package's section is made of. Exported by
// name, so what the kernel offers is this list. HTTP edge helpers live at @toolbelt/core/net, the
// browser-safe approval helpers at @toolbelt/core/approval, the classic Tool API at @toolbelt/core/classic.

// The tool contract.
export { EFFECTS, TOOL_NAME, ToolError, Workspace } from './tool.js';
export type {
  Classification,
  Effect,
  FileChangedEvent,
  Floor,
  FloorLevel,
  Invocation,
  OutputEvent,
  Preview,
  ProgressEvent,
  Question,
  RetryOptions,
  SessionState,
  Subject,
  Tool,
  ToolAlias,
  ToolAliases,
  ToolConfig,
  ToolContext,
  ToolEmit,
  ToolOutput,
  ToolSpec,
} from './tool.js';
export { BaseTool, defineTool } from './define.js';
export { errorResult, rejectedResult, textOf } from './result.js';
export type {
  ApprovedBy,
  ContentBlock,
  Display,
  ErrorResult,
  PendingResult,
  RejectedResult,
  Rejection,
  ResultError,
  SuccessResult,
  ToolErrorCode,
  ToolResult,
  ToolStatus,
} from './result.js';
export type { CompiledSchema, InputSchema, JsonSchema, Validation } from './schema.js';
export { structuredText, type StructuredText } from './structured-text.js';
export { MAX_INPUT_CHARS, MAX_INPUT_DEPTH, shapeProblem, type ShapeLimits } from './input-shape.js';
export { didYouMean } from './similar-names.js';
export type { ReadonlyDeep } from './frozen.js';

// The registry, its views and groups.
export { ToolRegistry } from './registry.js';
export type { RegistryChange, ToolFilter, ToolSource } from './source.js';
export {
  defineGroup,
  GroupedView,
  groupOf,
  listGroups,
  UnknownGroupError,
  type ToolGroup,
  type ToolGroupInfo,
} from './groups.js';

// Tool definitions in the formats of model providers and MCP.
export { PROVIDER_FORMATS, toProviderFormat, toProviderFormats, usualEffectOf } from './formats.js';
export type {
  AnthropicTool,
  GeminiFunctionDeclaration,
  JsonSchemaToolDefinition,
  McpAnnotations,
  McpToolDefinition,
  ObjectJsonSchema,
  OpenAIChatTool,
  OpenAIResponsesTool,
  ProviderFormat,
  ProviderTool,
  ProviderTools,
  VercelAiToolDefinition,
} from './formats.js';

// Events, approval, elicitation and the model a tool may ask.
export { EventBus, type ToolEvent, type ToolEventOf, type ToolEventType } from './events.js';
export { approveAll, describeRemember, destructiveWarning, hiddenTextWarning, rejectAll } from './approval.js';
export type {
  ApprovalDecision,
  ApprovalRequest,
  ApprovalScope,
  Approver,
  CallOrigin,
  RememberTarget,
} from './approval.js';
export { displayText } from './display-text.js';
export type { ApprovalRouter, ApproversByOrigin } from './approval-router.js';
export { acceptDefaults, declineAll, withDefaults } from './elicitation.js';
export type {
  ElicitationAnswer,
  ElicitationField,
  ElicitationRequest,
  ElicitationRouter,
  ElicitationSchema,
  ElicitationValue,
  Elicitor,
  ElicitorsByOrigin,
} from './elicitation.js';
export { DEFAULT_MAX_TOKENS, questionMessages } from './model-handle.js';
export type { ModelAnswer, ModelHandle, ModelMessage, ModelQuestion } from './model-handle.js';

// Config parts.
export { ConfigError, configSection, parseConfigWith } from './config/problems.js';
export {
  atLeastZeroInt,
  effectSchema,
  httpRetrySchema,
  mustBe,
  nonEmptyString,
  oneOf,
  positiveInt,
  resourceLimitsSchema,
  setKeys,
  stringList,
} from './config/parts.js';
export { coreConfigSchema, coreConfigShape, type CoreConfig, type ToolSettings } from './config/section.js';
export {
  executorOptionsFrom,
  policyOptionsFrom,
  toolSettingsFrom,
  type ExecutorSections,
  type ExecutorSettings,
  type PolicySections,
  type PolicySettings,
} from './config/apply.js';

// Policy.
export { canonicalMode, MODE_ALIASES, MODES } from './policy/types.js';
export type {
  Action,
  ArgMatcher,
  DecisionSource,
  DecisionStore,
  Mode,
  ModeAlias,
  PolicyCall,
  PolicyConfig,
  PolicyDecision,
  Remembered,
  Rule,
} from './policy/types.js';
export { DEFAULT_HARD_DENY, MODE_TABLE } from './policy/defaults.js';
export { commandHasPrefix, pathUnder } from './policy/match.js';
export type { RememberedDecisions } from './policy/remembered.js';
export { Policy, type PolicyOptions } from './policy/policy.js';

// The executor.
export { Executor, type CallRequest, type ExecutorOptions, type Explanation } from './executor/executor.js';
export type { ReadCache } from './executor/cache.js';
export type { Metrics, ToolMetricsSnapshot } from './executor/metrics.js';
export {
  MemoryLogSink,
  type ExecutionLogEntry,
  type LogRedaction,
  type LogSink,
  type LogSinks,
} from './executor/log.js';
export { truncateContent, type DeferredOutput } from './executor/truncate.js';
export { VERSION } from './version.js';
