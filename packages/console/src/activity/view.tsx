// Activity: the execution log with filters and each call's record, and live metrics.
import { useEffect, useState } from 'preact/hooks';
import type { ExecutionLogEntry } from '@toolbelt/core';
import type { WhoAmI } from '@toolbelt/protocol';
import { CallDetail } from './detail.js';
import { LogList } from './log-list.js';
import { Metrics } from './metrics.js';
import { LOG_LIMIT, useLog, type Log, type LogFilter } from './use-log.js';

const STATUSES = ['', 'success', 'error', 'rejected', 'pending'];
const SINCE = [
  [0, 'any time'],
  [15, 'last 15 min'],
  [60, 'last hour'],
  [1440, 'last day'],
] as const;

/** Tool and agent apply on Enter or Filter; status and time at once. */
function Filters({ filter, setFilter }: { filter: LogFilter; setFilter(f: LogFilter): void }) {
  const [draft, setDraft] = useState({ tool: '', agentId: '' });
  return (
    <form
      class="filters"
      onSubmit={(e) => {
        e.preventDefault();
        setFilter({ ...filter, ...draft });
      }}
    >
      <label>
        Tool{' '}
        <input
          value={draft.tool}
          onInput={(e) => setDraft({ ...draft, tool: e.currentTarget.value.trim() })}
          placeholder="any"
        />
      </label>
      <label>
        Agent{' '}
        <input
          value={draft.agentId}
          onInput={(e) => setDraft({ ...draft, agentId: e.currentTarget.value.trim() })}
          placeholder="any"
        />
      </label>
      <label>
        Status
        <select
          value={filter.status}
          onChange={(e) => setFilter({ ...filter, ...draft, status: e.currentTarget.value })}
        >
          {STATUSES.map((s) => (
            <option key={s} value={s}>
              {s || 'any'}
            </option>
          ))}
        </select>
      </label>
      <label>
        Time
        <select
          value={filter.sinceMinutes}
          onChange={(e) => setFilter({ ...filter, ...draft, sinceMinutes: Number(e.currentTarget.value) })}
        >
          {SINCE.map(([m, label]) => (
            <option key={m} value={m}>
              {label}
            </option>
          ))}
        </select>
      </label>
      <button type="submit">Filter</button>
    </form>
  );
}

/** How many calls are on screen, and, while older pages are open, how many finished since. */
function LogStatus({ log }: { log: Log }) {
  const n = log.entries.length;
  return (
    <p class="muted log-status" aria-live="polite">
      {log.loading
        ? 'Loading…'
        : `${n} call${n === 1 ? '' : 's'}${log.older !== undefined ? ', newest first; more below' : ''}`}
      {log.missed > 0 && (
        <button type="button" onClick={log.newest}>
          {log.missed} new — show the newest
        </button>
      )}
    </p>
  );
}

export function ActivityView({ me }: { me: WhoAmI }) {
  const [filter, setFilter] = useState<LogFilter>({ tool: '', agentId: '', status: '', sinceMinutes: 0 });
  const [selected, setSelected] = useState<ExecutionLogEntry>();
  const log = useLog(filter);
  useEffect(() => {
    // The browser test reads this: how long the view took to show the log, from the page's start.
    if (log.loadedAt !== undefined) document.body.dataset.activityLoadedMs = String(Math.round(log.loadedAt));
  }, [log.loadedAt]);
  if (!me.roles.includes('admin'))
    return (
      <p class="warning">
        The activity view reads the execution log and metrics, which need a token with the admin role.
      </p>
    );
  return (
    <section aria-labelledby="activity-title" class="activity">
      <h1 id="activity-title">Activity</h1>
      <Metrics />
      <Filters filter={filter} setFilter={setFilter} />
      {log.error && <p class="error">{log.error}</p>}
      <LogStatus log={log} />
      <div class="log-split">
        <div>
          <LogList entries={log.entries} selected={selected?.callId} onSelect={setSelected} />
          {log.older !== undefined && (
            <button type="button" class="older" onClick={log.loadOlder}>
              Load {LOG_LIMIT} older calls
            </button>
          )}
        </div>
        {selected ? <CallDetail entry={selected} /> : <p class="empty">Pick a call to see its full record.</p>}
      </div>
    </section>
  );
}
