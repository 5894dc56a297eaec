export { GatewayClient, type CallFilter, type CallOptions, type ClientOptions } from './client.js';
export type { RequestArgs } from './transport.js';
export { GatewayError, GatewayUnreachableError } from './errors.js';
export { cycles, type Cycle, type CycleOptions } from './cycles.js';
export { streamEvents, type EventStreamOptions } from './events.js';
export { onToolCall, type PendingCall, type ToolHandler } from './executor.js';
export { approveWith, type ApprovalAnswer, type ApprovalHandler } from './approver.js';
export { answerQuestionsWith, type QuestionHandler } from './answerer.js';
export type { Worker, WorkerOptions } from './worker.js';
// The wire types live in @toolbelt/protocol (one contract for the gateway and this SDK); re-exported for SDK users.
export type {
  AckAnswer,
  ApiErrorBody,
  ApiErrorCode,
  CallList,
  CallRecord,
  CallStatus,
  DecisionAnswer,
  GatewayEvent,
  GatewayEventType,
  InboxList,
  InboxMessage,
  PendingEvent,
  StreamedEvent,
  Submission,
  SubmitAnswer,
  ToolInfo,
  ToolList,
  AgentNote,
  AgentPrompt,
  CycleAnswer,
  MemberKind,
  MessageList,
  NoteKind,
  PostAnswer,
  Space,
  SpaceEvent,
  SpaceInboxMessage,
  SpaceMember,
  SpaceMessage,
  ToolResultInboxMessage,
} from '@toolbelt/protocol';
