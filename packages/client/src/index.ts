export { GatewayClient, type CallFilter, type CallOptions, type ClientOptions } from './client.js';
export { GatewayError } from './errors.js';
export { streamEvents, type EventStreamOptions } from './events.js';
export { onToolCall, type PendingCall, type ToolHandler } from './executor.js';
export { approveWith, type ApprovalAnswer, type ApprovalHandler } from './approver.js';
export type { Worker, WorkerOptions } from './worker.js';
export type * from './types.js';
