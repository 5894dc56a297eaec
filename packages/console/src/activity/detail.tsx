// One call's full record: the log entry, and the gateway's record of the call when it has one.
import { useEffect, useState } from 'preact/hooks';
import type { ExecutionLogEntry } from '@toolbelt/core';
import type { CallRecord } from '@toolbelt/protocol';
import { api, ApiError } from '../api.js';
import { clock, ms } from '../ui/format.js';
import { Json } from '../ui/json.js';
import { Content } from '../ui/content.js';

export function CallDetail({ entry }: { entry: ExecutionLogEntry }) {
  const [record, setRecord] = useState<CallRecord | null>();
  useEffect(() => {
    setRecord(undefined);
    api('getCall', { params: { callId: entry.callId } })
      .then(setRecord)
      .catch((e: unknown) => setRecord(e instanceof ApiError && e.status === 404 ? null : undefined));
  }, [entry.callId]);
  return (
    <article class="card detail" aria-label={`Call ${entry.callId}`}>
      <h2>
        <code>{entry.tool}</code> <span class={`badge status-${entry.status}`}>{entry.status}</span>
      </h2>
      <dl>
        <dt>call</dt>
        <dd>{entry.callId}</dd>
        <dt>when</dt>
        <dd>{clock(entry.timestamp, 'date')}</dd>
        <dt>took</dt>
        <dd>{ms(entry.durationMs)}</dd>
        <dt>agent</dt>
        <dd>{entry.agentId ?? '—'}</dd>
        <dt>run</dt>
        <dd>{entry.runId ?? '—'}</dd>
        <dt>from</dt>
        <dd>{entry.origin ?? '—'}</dd>
        <dt>approved</dt>
        <dd>{entry.approvedBy ?? '—'}</dd>
      </dl>
      <h3>Input</h3>
      <Json value={entry.params} />
      {entry.error && (
        <>
          <h3>Error</h3>
          <p class="error">
            {entry.error.code}: {entry.error.message}
          </p>
        </>
      )}
      {entry.result !== undefined && (
        <>
          <h3>Result</h3>
          <Content content={entry.result} />
        </>
      )}
      {record && (
        <details>
          <summary>The gateway's record of this call</summary>
          <Json value={record} />
        </details>
      )}
    </article>
  );
}
