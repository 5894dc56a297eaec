// @toolbelt/core/net: the HTTP edge helpers the packages that listen or fetch share (the gateway,
// MCP, the CLI, integrations, web tools): the bind check, the Host header check, a retrying fetch
// and the words for why a connection failed. Not the kernel; kept out of @toolbelt/core's index.
export { assertSafeBind, BindRefusedError, isLoopback, isWildcard, type BindAdvice } from './bind.js';
export { describeCause, errorCode, isConnectionFailure, unreachableMessage } from './cause.js';
export { HostCheck, HostConfigError, hostNameOf, type HostCheckOptions, type HostRefusal } from './host-check.js';
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
} from './retry.js';
