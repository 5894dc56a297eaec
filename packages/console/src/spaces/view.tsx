// Spaces: the list of the token's spaces, and one space as a chat.
import { useEffect, useState } from 'preact/hooks';
import type { Space, ToolInfo, ToolList, WhoAmI } from '@toolbelt/protocol';
import { api } from '../api.js';
import { href } from '../route.js';
import { Chat } from './chat.js';

export function SpacesView({ me, spaceId }: { me: WhoAmI; spaceId: string | undefined }) {
  const [spaces, setSpaces] = useState<Space[]>();
  const [tools, setTools] = useState<Map<string, ToolInfo>>(new Map());
  const [error, setError] = useState<string>();
  useEffect(() => {
    api('listSpaces')
      .then((l) => setSpaces(l.spaces))
      .catch((e: Error) => setError(e.message));
    (api('listTools') as Promise<ToolList>)
      .then((l) => setTools(new Map(l.tools.map((t) => [t.name, t]))))
      .catch(() => {});
  }, []);
  const current = spaceId ?? (spaces?.length === 1 ? spaces[0].id : undefined);
  return (
    <section class={`spaces${current ? ' has-space' : ''}`} aria-label="Spaces">
      <nav class="space-list" aria-label="Your spaces">
        <h1>Spaces</h1>
        {error && <p class="error">{error}</p>}
        {spaces?.length === 0 && (
          <p class="empty">
            No spaces yet. An admin creates one with POST /api/spaces and adds you as a person member.
          </p>
        )}
        <ul>
          {spaces?.map((s) => (
            <li key={s.id}>
              <a href={href('spaces', s.id)} aria-current={s.id === current ? 'page' : undefined}>
                {s.name}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      {current ? (
        <Chat
          key={current}
          spaceId={current}
          name={spaces?.find((s) => s.id === current)?.name ?? current}
          me={me}
          tools={tools}
        />
      ) : (
        <p class="empty">Pick a space.</p>
      )}
    </section>
  );
}
