// One serialization of a call's result for every place it goes. A result travels four times through
// JSON on its way out (the call row, the tool.result event, the execution log and the HTTP answer);
// its content, often a whole file, is turned into text once and spliced into the others.
import type { ContentBlock, ExecutionLogEntry, ToolResult } from '@toolbelt/core';
import type { GatewayEvent } from './events/types.js';

// Keyed by identity. A result is final once the executor hands it out (its tool.result event is
// emitted after durationMs is set), and nothing in the gateway changes it afterwards.
const contentJson = new WeakMap<ContentBlock[], string>();
const resultJson = new WeakMap<ToolResult, string>();

/** JSON of `obj` with `json` (already serialized) as the value of `key`. */
function withJson(obj: object, key: string, json: string): string {
  const { [key]: _omitted, ...rest } = obj as Record<string, unknown>;
  const head = JSON.stringify(rest);
  return head.length > 2 ? `${head.slice(0, -1)},${JSON.stringify(key)}:${json}}` : `{${JSON.stringify(key)}:${json}}`;
}

function jsonOfContent(content: ContentBlock[]): string {
  let json = contentJson.get(content);
  if (json === undefined) {
    json = JSON.stringify(content);
    contentJson.set(content, json);
  }
  return json;
}

export function jsonOfResult(result: ToolResult): string {
  let json = resultJson.get(result);
  if (json === undefined) {
    json = Array.isArray(result.content)
      ? withJson(result, 'content', jsonOfContent(result.content))
      : JSON.stringify(result);
    resultJson.set(result, json);
  }
  return json;
}

export function jsonOfEvent(event: GatewayEvent): string {
  return event.type === 'tool.result' && event.result
    ? withJson(event, 'result', jsonOfResult(event.result))
    : JSON.stringify(event);
}

export function jsonOfEntry(entry: ExecutionLogEntry): string {
  return Array.isArray(entry.result) ? withJson(entry, 'result', jsonOfContent(entry.result)) : JSON.stringify(entry);
}
