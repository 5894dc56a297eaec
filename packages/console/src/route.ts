// Hash routes: #/approvals, #/spaces/<id>, #/activity, #/tools.
import { useEffect, useState } from 'preact/hooks';

export type View = 'approvals' | 'spaces' | 'activity' | 'tools';
export const VIEWS: { id: View; label: string }[] = [
  { id: 'approvals', label: 'Approvals' },
  { id: 'spaces', label: 'Spaces' },
  { id: 'activity', label: 'Activity' },
  { id: 'tools', label: 'Tools' },
];

export interface Route {
  view: View;
  /** The rest of the path: a space's id. */
  arg?: string;
}

function parse(hash: string): Route {
  const [view, ...rest] = hash.replace(/^#\/?/, '').split('/');
  const known = VIEWS.find((v) => v.id === view);
  const arg = rest.length ? decodeURIComponent(rest.join('/')) : undefined;
  return known ? { view: known.id, ...(arg ? { arg } : {}) } : { view: 'approvals' };
}

export function useRoute(): Route {
  const [route, setRoute] = useState(() => parse(location.hash));
  useEffect(() => {
    const on = () => setRoute(parse(location.hash));
    addEventListener('hashchange', on);
    return () => removeEventListener('hashchange', on);
  }, []);
  return route;
}

export function href(view: View, arg?: string): string {
  return `#/${view}${arg ? `/${encodeURIComponent(arg)}` : ''}`;
}
