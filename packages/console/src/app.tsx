// The shell: who is signed in, the navigation, and the view the URL names.
import { useEffect, useState } from 'preact/hooks';
import type { WhoAmI } from '@toolbelt/protocol';
import { api, ApiError, setToken, token } from './api.js';
import { href, useRoute, VIEWS } from './route.js';
import { ApprovalsView } from './approvals/view.js';
import { SpacesView } from './spaces/view.js';
import { ActivityView } from './activity/view.js';
import { ToolsView } from './tools/view.js';
import { TokenForm } from './ui/token-form.js';

type Session =
  | { state: 'loading' }
  | { state: 'token'; message?: string }
  | { state: 'ready'; me: WhoAmI }
  | { state: 'down'; message: string };

/**
 * Who the token is. A 401 asks for a token; it is shown as an error only once a token was tried
 * (one just submitted, or one this tab kept that the gateway no longer takes), never on arrival.
 */
function useSession(): [Session, (submitted?: boolean) => void] {
  const [session, setSession] = useState<Session>({ state: 'loading' });
  const load = (submitted = false) =>
    api('whoAmI')
      .then((me) => setSession({ state: 'ready', me }))
      .catch((e: unknown) => {
        if (!(e instanceof ApiError && e.status === 401))
          return setSession({ state: 'down', message: (e as Error).message });
        const kept = !submitted && token() !== undefined;
        setToken(undefined);
        const message = submitted
          ? `That token was not accepted (${e.message}).`
          : kept
            ? 'The token this tab kept is no longer accepted: enter one again.'
            : undefined;
        setSession({ state: 'token', message });
      });
  useEffect(() => void load(), []);
  return [session, load];
}

export function App() {
  const [session, reload] = useSession();
  const route = useRoute();
  if (session.state === 'loading') return <p class="center">Connecting to the gateway…</p>;
  if (session.state === 'down')
    return <p class="center error">The gateway did not answer: {session.message}. Is toolbelt serve running?</p>;
  if (session.state === 'token') return <TokenForm message={session.message} onToken={() => reload(true)} />;
  const { me } = session;
  // Spaces fill the window: the message list scrolls, the navigation and the message box stay.
  return (
    <div class={`shell${route.view === 'spaces' ? ' fill' : ''}`}>
      <header class="top">
        <strong class="brand">toolbelt</strong>
        <nav aria-label="Views">
          {VIEWS.map((v) => (
            <a key={v.id} href={href(v.id)} aria-current={route.view === v.id ? 'page' : undefined}>
              {v.label}
            </a>
          ))}
        </nav>
        <span class="who" title={me.roles.join(', ')}>
          {me.name}
          {me.authEnabled && (
            <button
              class="link"
              onClick={() => {
                setToken(undefined);
                reload();
              }}
            >
              sign out
            </button>
          )}
        </span>
      </header>
      <main>
        {route.view === 'approvals' && <ApprovalsView me={me} />}
        {route.view === 'spaces' && <SpacesView me={me} spaceId={route.arg} />}
        {route.view === 'activity' && <ActivityView me={me} />}
        {route.view === 'tools' && <ToolsView me={me} />}
      </main>
    </div>
  );
}
