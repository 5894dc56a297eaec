// The execution log under the chosen filters, a page at a time (newest first, older pages on
// request); the newest page is refreshed when calls finish (from the event stream).
import { useEffect, useRef, useState } from 'preact/hooks';
import type { ExecutionLogEntry } from '@toolbelt/core';
import type { ExecutionList } from '@toolbelt/protocol';
import { api, stream } from '../api.js';

export interface LogFilter {
  tool: string;
  agentId: string;
  status: string;
  /** Minutes back; 0 for all. */
  sinceMinutes: number;
}

export const LOG_LIMIT = 1000;

interface LogState {
  entries: ExecutionLogEntry[];
  loading: boolean;
  error?: string;
  /** When the first page of this filter was on screen, in ms from the page's start (performance.now). */
  loadedAt?: number;
  /** Where the next older page starts; absent when the oldest entry is on screen. */
  older?: number;
  /**
   * Calls finished since older pages were opened. Refreshing the newest page then would leave a
   * hole between it and the older ones, so the view waits until the person goes back to the newest.
   */
  missed: number;
}

export interface Log extends LogState {
  loadOlder(): void;
  /** Back to the newest page (dropping the older ones), live again. */
  newest(): void;
}

function logQuery(filter: LogFilter, before?: number) {
  const since = filter.sinceMinutes ? new Date(Date.now() - filter.sinceMinutes * 60_000).toISOString() : undefined;
  return { tool: filter.tool, agentId: filter.agentId, status: filter.status, since, limit: LOG_LIMIT, before };
}

export function useLog(filter: LogFilter): Log {
  const [state, setState] = useState<LogState>({ entries: [], loading: true, missed: 0 });
  const [generation, setGeneration] = useState(0);
  const paged = useRef(false);
  const timer = useRef<number>();
  const newestLoad = useRef(0);

  // Loads can overlap (a slow one, then a reload): only the newest one's answer is shown.
  const fetchPage = (before: number | undefined, apply: (page: ExecutionList, s: LogState) => LogState) => {
    const mine = ++newestLoad.current;
    api('executions', { query: logQuery(filter, before) })
      .then((page) => mine === newestLoad.current && setState((s) => apply(page, s)))
      .catch(
        (e: Error) => mine === newestLoad.current && setState((s) => ({ ...s, loading: false, error: e.message })),
      );
  };
  const loadNewest = () =>
    fetchPage(undefined, (page, s) => ({
      entries: page.entries,
      older: page.nextBefore,
      loading: false,
      missed: 0,
      loadedAt: s.loadedAt ?? performance.now(),
    }));

  useEffect(() => {
    paged.current = false;
    setState({ entries: [], loading: true, missed: 0 });
    loadNewest();
    const close = stream('events', { query: { types: ['tool.result'] } }, ['tool.result'], () => {
      if (paged.current) setState((s) => ({ ...s, missed: s.missed + 1 }));
      // A burst of finished calls is one reload, at most once a second.
      else if (timer.current === undefined)
        timer.current = window.setTimeout(() => ((timer.current = undefined), loadNewest()), 1000);
    });
    return () => {
      newestLoad.current++;
      close();
      clearTimeout(timer.current);
      timer.current = undefined;
    };
  }, [filter.tool, filter.agentId, filter.status, filter.sinceMinutes, generation]);

  return {
    ...state,
    loadOlder: () => {
      if (state.older === undefined) return;
      paged.current = true;
      // A reload of the newest page already on its way would replace the pages being read.
      clearTimeout(timer.current);
      timer.current = undefined;
      fetchPage(state.older, (page, s) => ({ ...s, entries: [...s.entries, ...page.entries], older: page.nextBefore }));
    },
    newest: () => setGeneration((g) => g + 1),
  };
}
