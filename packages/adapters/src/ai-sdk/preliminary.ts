// A call's output while it runs, as the AI SDK's preliminary tool results: execute becomes an
// async generator that yields what the tool has printed so far (and its progress), then the
// ToolResult. The SDK streams the preliminary ones to the UI (`preliminary: true`); only the last
// one reaches the model.
import type { CallRequest, Executor, ToolEvent, ToolResult } from '@toolbelt/core';

/** What a running call has shown so far: its output (the tail, when long) and its last progress. */
export interface RunningOutput {
  status: 'running';
  callId: string;
  tool: string;
  /** stdout and stderr as they came, the last `OUTPUT_TAIL` characters of it. */
  output: string;
  progress?: { progress?: number; total?: number; message?: string };
}

/** How much of a long output each preliminary result carries: a UI shows the tail of a log. */
const OUTPUT_TAIL = 8_000;

export async function* runWithOutput(
  executor: Executor,
  req: CallRequest & { callId: string },
): AsyncGenerator<RunningOutput | ToolResult> {
  let output = '';
  let progress: RunningOutput['progress'];
  let news = false;
  let wake: (() => void) | undefined;
  const off = executor.events.on((e: ToolEvent) => {
    if (!('callId' in e) || e.callId !== req.callId) return;
    if (e.type === 'tool.output') output = (output + e.chunk).slice(-OUTPUT_TAIL);
    else if (e.type === 'tool.progress')
      progress = {
        progress: e.progress,
        ...(e.total !== undefined ? { total: e.total } : {}),
        ...(e.message ? { message: e.message } : {}),
      };
    else return;
    news = true;
    wake?.();
  });
  let result: ToolResult | undefined;
  const call = executor.call(req).then((r) => {
    result = r;
    wake?.();
  });
  try {
    while (!result) {
      // Events that came while the last value was consumed are one update, not one each.
      if (!news) await new Promise<void>((resolve) => (wake = resolve));
      wake = undefined;
      if (news && !result) {
        news = false;
        yield { status: 'running', callId: req.callId, tool: req.tool, output, ...(progress ? { progress } : {}) };
      }
    }
    await call;
    yield result;
  } finally {
    off();
  }
}
