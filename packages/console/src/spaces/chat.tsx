// One space as a chat: messages stream in, visible calls render by tool name, the person posts.
import { useState } from 'preact/hooks';
import type { SpaceMessage, ToolInfo, WhoAmI } from '@toolbelt/protocol';
import { api } from '../api.js';
import { href } from '../route.js';
import { rendererFor } from './renderers.js';
import { useSpace } from './use-space.js';
import { useStickyList } from './scroll.js';
import { clock } from '../ui/format.js';

function ToolMessage({
  m,
  tool,
  output,
  spaceId,
  onAnswered,
}: {
  m: SpaceMessage;
  tool?: ToolInfo;
  output?: string;
  spaceId: string;
  onAnswered(): void;
}) {
  const Renderer = rendererFor(m, tool);
  const answer = async (result: unknown) => {
    await api('submitResult', { params: { runId: m.runId ?? '' }, body: { callId: m.callId ?? '', result, spaceId } });
    onAnswered();
  };
  return (
    <div class="tool-call" data-tool={m.tool} data-status={m.status}>
      <div class="tool-head">
        <code>{m.tool}</code> <span class={`badge status-${m.status}`}>{m.status.replace('_', ' ')}</span>
      </div>
      <Renderer message={m} tool={tool} output={output} answer={answer} />
    </div>
  );
}

function Composer({ spaceId, me, onPosted }: { spaceId: string; me: WhoAmI; onPosted(m: SpaceMessage): void }) {
  const [text, setText] = useState('');
  const [problem, setProblem] = useState<string>();
  const send = async () => {
    if (!text.trim()) return;
    try {
      const a = await api('postMessage', { params: { spaceId }, body: { senderId: me.name, text: text.trim() } });
      onPosted(a.message);
      setText('');
      setProblem(undefined);
    } catch (e) {
      setProblem((e as Error).message);
    }
  };
  return (
    <form
      class="composer"
      onSubmit={(e) => {
        e.preventDefault();
        void send();
      }}
    >
      {problem && <p class="error">{problem}</p>}
      <label class="sr-only" for="composer-text">
        Message
      </label>
      <textarea
        id="composer-text"
        rows={2}
        placeholder={`Message as ${me.name} (Enter sends, Shift+Enter for a new line)`}
        value={text}
        onInput={(e) => setText(e.currentTarget.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && !e.shiftKey) {
            e.preventDefault();
            void send();
          }
        }}
      />
      <button type="submit" class="primary">
        Send
      </button>
    </form>
  );
}

export function Chat({
  spaceId,
  name,
  me,
  tools,
}: {
  spaceId: string;
  name: string;
  me: WhoAmI;
  tools: Map<string, ToolInfo>;
}) {
  const [state, upsert] = useSpace(spaceId);
  const last = state.messages[state.messages.length - 1];
  const list = useStickyList(state.messages.length, last?.senderId === me.name);
  return (
    <div class="chat" aria-label={`Space ${name}`}>
      <div class="bar">
        <a class="back" href={href('spaces')}>
          ← Spaces
        </a>
        <h2>{name}</h2>
        <span class={`live ${state.live ? 'on' : 'off'}`}>{state.live ? 'live' : 'reconnecting…'}</span>
      </div>
      {state.error && <p class="error">{state.error}</p>}
      <div class="messages-wrap">
        <div class="messages-scroll" ref={list.ref} onScroll={list.onScroll}>
          <ol class="messages" aria-live="polite">
            {state.messages.map((m) => (
              <li key={m.id} class={`msg ${m.senderKind}${m.senderId === me.name ? ' mine' : ''}`} data-id={m.id}>
                <div class="meta">
                  <strong>{m.senderId}</strong> <span class="muted">{clock(m.createdAt, 'minutes')}</span>
                </div>
                {m.kind === 'text' ? (
                  <p class="text">{m.text}</p>
                ) : (
                  <ToolMessage
                    m={m}
                    tool={tools.get(m.tool ?? '')}
                    output={state.output[m.callId ?? '']}
                    spaceId={spaceId}
                    onAnswered={() => {}}
                  />
                )}
              </li>
            ))}
          </ol>
        </div>
        {list.unseen > 0 && (
          <button type="button" class="new-marker" onClick={list.toNewest}>
            {list.unseen} new {list.unseen === 1 ? 'message' : 'messages'} ↓
          </button>
        )}
      </div>
      <Composer spaceId={spaceId} me={me} onPosted={upsert} />
    </div>
  );
}
