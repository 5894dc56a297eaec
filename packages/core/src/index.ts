export * from './tool.js';
export * from './result.js';
export * from './schema.js';
export * from './structured-text.js';
export * from './define.js';
export * from './registry.js';
export * from './groups.js';
export { didYouMean, editDistance, similarNames } from './similar-names.js';
export * from './formats.js';
export * from './events.js';
export * from './approval.js';
export { ApprovalRouter, type ApproversByOrigin } from './approval-router.js';
export { OriginRouter } from './origin-router.js';
export * from './elicitation.js';
export * from './model-handle.js';
export { frozenCopy, type ReadonlyDeep } from './frozen.js';
export * from './config/index.js';
export { MAX_INPUT_CHARS, MAX_INPUT_DEPTH, shapeProblem, type ShapeLimits } from './input-shape.js';
export * from './policy/types.js';
export * from './policy/defaults.js';
export { evaluate } from './policy/evaluate.js';
export { commandHasPrefix, normalizeCommand, pathUnder, ruleMatches } from './policy/match.js';
export { RememberedDecisions, rememberedCovers } from './policy/remembered.js';
export { Policy, type PolicyOptions } from './policy/policy.js';
export {
  Executor,
  rememberTarget,
  type CallRequest,
  type ExecutorOptions,
  type Explanation,
} from './executor/executor.js';
export { ReadCache } from './executor/cache.js';
export { Metrics, type ToolMetricsSnapshot } from './executor/metrics.js';
export { LogSinks, MemoryLogSink, type ExecutionLogEntry, type LogRedaction, type LogSink } from './executor/log.js';
export { truncateText, truncateContent } from './executor/truncate.js';
export { TimeoutReason } from './executor/attempt.js';
export { assertSafeBind, BindRefusedError, isLoopback, isWildcard, type BindAdvice } from './net/bind.js';
export { describeCause, errorCode, isConnectionFailure, unreachableMessage } from './net/cause.js';
export { HostCheck, HostConfigError, hostNameOf, type HostCheckOptions, type HostRefusal } from './net/host-check.js';
export {
  adviseFetch,
  HTTP_RETRY_DEFAULTS,
  isConnectionReset,
  parseRetryAfter,
  retryableStatus,
  retryingFetch,
  withHttpRetries,
  type HttpRetryOptions,
  type RetryAdvice,
  type RetryLoop,
} from './net/retry.js';
export { VERSION } from './version.js';
