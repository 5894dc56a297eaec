// What `toolbelt chat` shows of a run: the model's text on stdout as it streams, each tool call
// and its outcome on stderr, and at a terminal what a tool prints while it runs. A call's name,
// input and outcome are shown through displayText: their control and bidi characters escaped.
import { displayText, textOf, type EventBus } from '@toolbelt/core';
import type { AgentEvent } from '@toolbelt/agent';
import type { Io } from '../command.js';
import { styleFor } from '../terminal/style.js';

const clip = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

export function renderEvents(io: Io): (event: AgentEvent) => void {
  let open = false;
  return (event) => {
    if (event.type === 'text') {
      io.stdout.write(event.delta);
      open = !event.delta.endsWith('\n');
    } else if (event.type === 'assistant' && open) {
      io.stdout.write('\n');
      open = false;
    } else if (event.type === 'tool.call') {
      io.stderr.write(`→ ${displayText(`${event.call.name} ${clip(JSON.stringify(event.call.input), 200)}`)}\n`);
    } else if (event.type === 'tool.result') {
      const r = event.result;
      const detail =
        r.status === 'error'
          ? `error ${r.error.code}: ${r.error.message}`
          : r.status === 'rejected'
            ? `rejected: ${textOf(r)}`
            : r.status;
      io.stderr.write(`← ${displayText(`${event.call.name}: ${clip(detail.replace(/\s+/g, ' '), 200)}`)}\n`);
    }
  };
}

/**
 * At a terminal (stderr is one), a tool's output as it comes — a test run, a build — dimmed on
 * stderr, so the person sees what the agent is waiting for; pipes get the outcome lines alone.
 * Returns how to stop.
 */
export function showToolOutput(events: EventBus, io: Io, sessionId: string): () => void {
  if (!(io.stderr as { isTTY?: boolean }).isTTY) return () => {};
  const style = styleFor(io.stderr);
  return events.on((e) => {
    if (e.type === 'tool.output' && e.sessionId === sessionId) io.stderr.write(style.dim(e.chunk));
  });
}
