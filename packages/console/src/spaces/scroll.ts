// The message list keeps the newest message in view: it scrolls (the page does not), sticks to the
// bottom while the person is there (as messages arrive, charts draw, calls finish, the box grows),
// jumps to the bottom on the person's own message, and counts what arrived while they read above.
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';

/** How close to the bottom (px) still counts as "at the newest". */
const NEAR = 32;

export interface StickyList {
  /** The scrolling element; its first child is the list whose growth is watched. */
  ref: { current: HTMLDivElement | null };
  /** Messages that arrived while the person was scrolled up. */
  unseen: number;
  onScroll(): void;
  toNewest(): void;
}

export function useStickyList(count: number, lastIsMine: boolean): StickyList {
  const ref = useRef<HTMLDivElement>(null);
  const stuck = useRef(true);
  const seen = useRef(0);
  const [unseen, setUnseen] = useState(0);
  const toNewest = () => {
    const el = ref.current;
    if (el) el.scrollTop = el.scrollHeight;
    stuck.current = true;
    setUnseen(0);
  };
  // Before the browser paints the new messages: a person at the bottom never sees them below the fold.
  useLayoutEffect(() => {
    const added = count - seen.current;
    seen.current = count;
    if (added <= 0) return;
    if (stuck.current || lastIsMine) toNewest();
    else setUnseen((n) => n + added);
  }, [count]);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const keep = () => {
      if (stuck.current) el.scrollTop = el.scrollHeight;
    };
    const watch = new ResizeObserver(keep);
    watch.observe(el);
    if (el.firstElementChild) watch.observe(el.firstElementChild);
    return () => watch.disconnect();
  }, []);
  const onScroll = () => {
    const el = ref.current;
    if (!el) return;
    stuck.current = el.scrollHeight - el.scrollTop - el.clientHeight <= NEAR;
    if (stuck.current) setUnseen(0);
  };
  return { ref, unseen, onScroll, toNewest };
}
