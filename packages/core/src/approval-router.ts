// Which approver asks about a call: the one the call's front end contributed. One executor serves
// the terminal, MCP clients and the HTTP gateway at once; each asks its own person its own way.
import { rejectAll, type Approver, type CallOrigin } from './approval.js';
import { OriginRouter } from './origin-router.js';

export type ApproversByOrigin = Partial<Record<CallOrigin, Approver>>;

export class ApprovalRouter extends OriginRouter<Approver> {
  /** `fallback` asks about calls from an origin with no approver of its own. */
  constructor(fallback: Approver = rejectAll, approvers: ApproversByOrigin = {}) {
    super(fallback, approvers, 'an approver');
  }

  /** The approver asked about calls from `origin`. */
  approverFor(origin: CallOrigin = 'library'): Approver {
    return this.for(origin);
  }

  /** Asks the approver of the request's origin. */
  readonly ask: Approver = (request, signal) => this.approverFor(request.origin)(request, signal);
}
