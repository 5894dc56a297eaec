// One task at a time, however often it is asked for: what a connection does on tools/list_changed.

/**
 * `task` as a function to call whenever it is wanted: a call while it runs makes it run once more
 * after (however many came), never twice at once. Every caller gets the promise of the run under way.
 */
export function coalesced(task: () => Promise<void>): () => Promise<void> {
  let running: Promise<void> | undefined;
  let again = false;
  return () => {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      do {
        again = false;
        await task();
      } while (again);
    })().finally(() => (running = undefined));
    return running;
  };
}
