// One handler per front end: a call from the terminal is asked at the terminal, one from an MCP
// client through that client, one from the gateway over HTTP. Approvals and questions route alike.
import type { CallOrigin } from './approval.js';

export class OriginRouter<H> {
  private readonly routes = new Map<CallOrigin, H>();

  /** `fallback` serves calls from an origin with no handler of its own. */
  constructor(
    private readonly fallback: H,
    handlers: Partial<Record<CallOrigin, H>> = {},
    private readonly what = 'a handler',
  ) {
    for (const [origin, handler] of Object.entries(handlers) as [CallOrigin, H][]) this.register(origin, handler);
  }

  /**
   * Calls from `origin` go to `handler` until the returned function is called. One handler per
   * origin: a second one for the same origin is refused rather than silently winning.
   */
  register(origin: CallOrigin, handler: H): () => void {
    if (this.routes.has(origin)) {
      throw new Error(
        `calls from "${origin}" already have ${this.what} on this executor; let one front end serve that origin, or close the other first`,
      );
    }
    this.routes.set(origin, handler);
    return () => {
      if (this.routes.get(origin) === handler) this.routes.delete(origin);
    };
  }

  /** The handler for calls from `origin`. */
  for(origin: CallOrigin = 'library'): H {
    return this.routes.get(origin) ?? this.fallback;
  }
}
