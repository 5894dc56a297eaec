export { createGateway, type Gateway, type GatewayOptions } from './gateway.js';
export {
  declaredToolSchema,
  gatewayConfigShape,
  gatewaySection,
  gatewaySettingsFrom,
  type DeclaredTool,
  type GatewayConfig,
  type GatewaySection,
  type GatewaySettings,
} from './config.js';
export { policyWithStore, storeDecisions } from './decisions.js';
export { openProblem, openSqliteStore, SqliteStore, StoreOpenError, StoreVersionError } from './store/sqlite/index.js';
export { openPgStore, PgStore, type PgStoreOptions } from './store/pg/index.js';
export { CALL_STATUSES, OPEN_STATUSES, StoreUnavailableError } from './store/index.js';
export type * from './store/shared/types.js';
export { EVENT_TYPES, type GatewayEvent, type GatewayEventType, type PendingEvent } from './events/types.js';
export {
  Auth,
  AuthConfigError,
  hashToken,
  ROLES,
  TOKEN_ENV,
  TOKEN_FILE_ENV,
  type Principal,
  type Role,
  type TokenSpec,
} from './http/auth.js';
export { HostConfigError } from '@toolbelt/core/net';
export { assertSafeBind, BindRefusedError, DEFAULT_HOST, DEFAULT_PORT, isLoopback, type Listening } from './server.js';
export { DeclaredToolError, declaredTool, defaultEffect } from './declared/tool.js';
export { OPENAPI } from './openapi.js';
