// Which approver asks about a call: the one the call's front end contributed. One executor serves
// the terminal, MCP clients and the HTTP gateway at once; each asks its own person its own way.
import { rejectAll, type Approver, type CallOrigin } from './approval.js';

export type ApproversByOrigin = Partial<Record<CallOrigin, Approver>>;

export class ApprovalRouter {
  private readonly routes = new Map<CallOrigin, Approver>();

  /** `fallback` asks about calls from an origin with no approver of its own. */
  constructor(
    private readonly fallback: Approver = rejectAll,
    approvers: ApproversByOrigin = {},
  ) {
    for (const [origin, approver] of Object.entries(approvers) as [CallOrigin, Approver][]) this.register(origin, approver);
  }

  /**
   * Calls from `origin` are asked through `approver` until the returned function is called. One
   * approver per origin: a second one for the same origin is refused rather than silently winning.
   */
  register(origin: CallOrigin, approver: Approver): () => void {
    if (this.routes.has(origin)) {
      throw new Error(`calls from "${origin}" already have an approver on this executor; let one front end serve that origin, or close the other first`);
    }
    this.routes.set(origin, approver);
    return () => {
      if (this.routes.get(origin) === approver) this.routes.delete(origin);
    };
  }

  /** The approver asked about calls from `origin`. */
  approverFor(origin: CallOrigin = 'library'): Approver {
    return this.routes.get(origin) ?? this.fallback;
  }

  /** Asks the approver of the request's origin. */
  readonly ask: Approver = (request, signal) => this.approverFor(request.origin)(request, signal);
}
