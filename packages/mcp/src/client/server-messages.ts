// What a connected server may send toolbelt's client besides answers: questions (elicitation),
// tool list changes and log lines.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  LoggingMessageNotificationSchema,
  ToolListChangedNotificationSchema,
  type LoggingMessageNotification,
} from '@modelcontextprotocol/sdk/types.js';
import { answerElicitations, type Asker } from './elicitation.js';

export interface ServerMessageHandlers {
  server: string;
  /** The asker of the call in flight, if any. */
  asker(): Asker | undefined;
  onToolsChanged(): void;
  onLog: ((message: LoggingMessageNotification['params']) => void) | undefined;
  log: ((line: string) => void) | undefined;
}

export function handleServerMessages(client: Client, h: ServerMessageHandlers): void {
  answerElicitations(client, h.server, h.asker, h.log);
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => h.onToolsChanged());
  client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => h.onLog?.(n.params));
}
