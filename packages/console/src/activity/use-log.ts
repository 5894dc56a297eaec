// The execution log under the chosen filters; refreshed when calls finish (from the event stream).
import { useEffect, useRef, useState } from 'preact/hooks';
import type { ExecutionList, ExecutionLogEntry } from '@toolbelt/core';
import { api, query, stream } from '../api.js';

export interface LogFilter {
  tool: string;
  agentId: string;
  status: string;
  /** Minutes back; 0 for all. */
  sinceMinutes: number;
}

export const LOG_LIMIT = 1000;

export interface LogState {
  entries: ExecutionLogEntry[];
  loading: boolean;
  error?: string;
  /** When the first page of this filter was on screen, in ms from the page's start (performance.now). */
  loadedAt?: number;
}

export function useLog(filter: LogFilter): LogState {
  const [state, setState] = useState<LogState>({ entries: [], loading: true });
  const timer = useRef<number>();
  useEffect(() => {
    let stale = false;
    // Loads can overlap (a slow one, then a reload): only the newest one's answer is shown.
    let newest = 0;
    const load = () => {
      const mine = ++newest;
      const current = () => !stale && mine === newest;
      const since = filter.sinceMinutes ? new Date(Date.now() - filter.sinceMinutes * 60_000).toISOString() : undefined;
      const q = query({ tool: filter.tool, agentId: filter.agentId, status: filter.status, since, limit: LOG_LIMIT });
      api<ExecutionList>(`/api/executions${q}`)
        .then((l) => current() && setState((s) => ({ entries: l.entries, loading: false, loadedAt: s.loadedAt ?? performance.now() })))
        .catch((e: Error) => current() && setState((s) => ({ ...s, loading: false, error: e.message })));
    };
    setState({ entries: [], loading: true });
    load();
    // A burst of finished calls is one reload, at most once a second.
    const close = stream('/api/events?types=tool.result', ['tool.result'], () => {
      if (timer.current === undefined) timer.current = window.setTimeout(() => ((timer.current = undefined), load()), 1000);
    });
    return () => {
      stale = true;
      close();
      clearTimeout(timer.current);
      timer.current = undefined;
    };
  }, [filter.tool, filter.agentId, filter.status, filter.sinceMinutes]);
  return state;
}
