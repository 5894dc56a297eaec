// One space's messages: the latest page, then kept live from the space's event stream.
import { useEffect, useState } from 'preact/hooks';
import type { SpaceMessage } from '@toolbelt/protocol';
import { api, stream } from '../api.js';

const PAGE = 200;

export interface SpaceState {
  messages: SpaceMessage[];
  /** Output streamed by running calls, by callId. */
  output: Record<string, string>;
  live: boolean;
  error?: string;
}

function upsert(all: SpaceMessage[], m: SpaceMessage): SpaceMessage[] {
  const i = all.findIndex((x) => x.id === m.id);
  if (i < 0) return [...all, m].sort((a, b) => a.id - b.id);
  // A snapshot asked for before an event may answer after it: never go back to an older state.
  if (all[i]!.updatedAt > m.updatedAt) return all;
  const next = all.slice();
  next[i] = m;
  return next;
}

async function latest(spaceId: string): Promise<SpaceMessage[]> {
  const params = { spaceId };
  const first = await api('listMessages', { params, query: { limit: PAGE } });
  if (first.total <= PAGE) return first.messages;
  return (await api('listMessages', { params, query: { offset: first.total - PAGE, limit: PAGE } })).messages;
}

export function useSpace(spaceId: string): [SpaceState, (m: SpaceMessage) => void] {
  const [state, setState] = useState<SpaceState>({ messages: [], output: {}, live: false });
  useEffect(() => {
    setState({ messages: [], output: {}, live: false });
    const onEvent = (type: string, data: unknown) => {
      const e = data as { message?: SpaceMessage; callId?: string; chunk?: string };
      if (type === 'tool.streaming' && e.callId) {
        setState((s) => ({
          ...s,
          output: { ...s.output, [e.callId!]: (s.output[e.callId!] ?? '') + (e.chunk ?? '') },
        }));
      } else if (e.message) {
        setState((s) => ({ ...s, messages: upsert(s.messages, e.message!) }));
      }
    };
    return stream(
      'spaceEvents',
      { params: { spaceId } },
      ['message', 'tool.started', 'tool.streaming', 'tool.done', 'tool.error'],
      onEvent,
      (open) => {
        setState((s) => ({ ...s, live: open }));
        if (open)
          latest(spaceId)
            .then((messages) =>
              setState((s) => ({ ...s, error: undefined, messages: messages.reduce(upsert, s.messages) })),
            )
            .catch((err: Error) => setState((s) => ({ ...s, error: err.message })));
      },
    );
  }, [spaceId]);
  return [state, (m) => setState((s) => ({ ...s, messages: upsert(s.messages, m) }))];
}
