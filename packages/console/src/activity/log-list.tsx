// The log as a list that renders only the rows in view, so ten thousand entries open at once.
import { useState } from 'preact/hooks';
import type { ExecutionLogEntry } from '@toolbelt/core';
import { clock, ms } from '../ui/format.js';

const ROW = 34;
const HEIGHT = 420;

export function LogList({
  entries,
  selected,
  onSelect,
}: {
  entries: ExecutionLogEntry[];
  selected?: string;
  onSelect(e: ExecutionLogEntry): void;
}) {
  const [top, setTop] = useState(0);
  const first = Math.max(0, Math.floor(top / ROW) - 5);
  const last = Math.min(entries.length, first + Math.ceil(HEIGHT / ROW) + 10);
  const move = (e: KeyboardEvent, i: number) => {
    const next = e.key === 'ArrowDown' ? i + 1 : e.key === 'ArrowUp' ? i - 1 : -1;
    if (next < 0 || next >= entries.length) return;
    e.preventDefault();
    onSelect(entries[next]);
    const list = (e.currentTarget as HTMLElement).closest('.log-list') as HTMLElement;
    list.scrollTop = Math.max(0, next * ROW - HEIGHT / 2);
    requestAnimationFrame(() => (list.querySelector(`[data-index="${next}"]`) as HTMLElement | null)?.focus());
  };
  return (
    <div
      class="log-list"
      style={{ height: `${HEIGHT}px` }}
      onScroll={(e) => setTop(e.currentTarget.scrollTop)}
      role="list"
      aria-label="Execution log"
    >
      <div style={{ height: `${entries.length * ROW}px`, position: 'relative' }}>
        {entries.slice(first, last).map((e, k) => {
          const i = first + k;
          return (
            <button
              key={e.callId + i}
              role="listitem"
              data-index={i}
              class={`row${e.callId === selected ? ' selected' : ''}`}
              style={{ top: `${i * ROW}px`, height: `${ROW}px` }}
              onClick={() => onSelect(e)}
              onKeyDown={(ev) => move(ev, i)}
            >
              <span class="t">{clock(e.timestamp)}</span>
              <span class={`badge status-${e.status}`}>{e.status}</span>
              <code class="tool">{e.tool}</code>
              <span class="agent muted">{e.agentId ?? e.origin ?? ''}</span>
              <span class="ms muted">{ms(e.durationMs)}</span>
            </button>
          );
        })}
      </div>
    </div>
  );
}
