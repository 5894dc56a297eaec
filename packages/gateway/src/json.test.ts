// One serialization spliced into several documents: each must parse back to the same value.
import type { ExecutionLogEntry, ToolResult } from '@toolbelt/core';
import { describe, expect, it } from 'vitest';
import type { GatewayEvent } from './events/types.js';
import { jsonOfEntry, jsonOfEvent, jsonOfResult } from './json.js';

const result = (): ToolResult => ({
  status: 'success',
  callId: 'c1',
  tool: 't',
  content: [
    { type: 'text', text: 'line "one"\nline two\u2028' },
    { type: 'json', json: { a: [1, null] } },
  ],
  durationMs: 1.5,
  metadata: { cached: true },
  display: undefined,
  approvedBy: 'auto',
});

describe('json', () => {
  it('a result, its tool.result event and its log entry parse back to what JSON.stringify would give', () => {
    const r = result();
    const event = {
      type: 'tool.result',
      callId: 'c1',
      tool: 't',
      result: r,
      ts: 1,
      sessionId: 's',
      runId: 'r',
    } as GatewayEvent;
    const entry: ExecutionLogEntry = {
      callId: 'c1',
      tool: 't',
      params: { p: 1 },
      status: 'success',
      result: r.content,
      durationMs: 1.5,
      timestamp: 'now',
      sessionId: 's',
    };
    for (const [json, value] of [
      [jsonOfResult(r), r],
      [jsonOfEvent(event), event],
      [jsonOfEntry(entry), entry],
    ] as const) {
      expect(JSON.parse(json)).toEqual(JSON.parse(JSON.stringify(value)));
    }
  });

  it('serializes a result once, and other events and entries as they are', () => {
    const r = result();
    expect(jsonOfResult(r)).toBe(jsonOfResult(r));
    const started = { type: 'tool.started', callId: 'c', tool: 't', attempt: 1, ts: 2, sessionId: 's' } as GatewayEvent;
    expect(jsonOfEvent(started)).toBe(JSON.stringify(started));
    const failed: ExecutionLogEntry = {
      callId: 'c',
      tool: 't',
      params: {},
      status: 'error',
      error: { code: 'TIMEOUT', message: 'm', recoverable: true },
      durationMs: 1,
      timestamp: 'x',
      sessionId: 's',
    };
    expect(jsonOfEntry(failed)).toBe(JSON.stringify(failed));
  });

  it('splices into an object with nothing else in it', () => {
    expect(JSON.parse(jsonOfResult({ content: [] } as unknown as ToolResult))).toEqual({ content: [] });
  });
});
