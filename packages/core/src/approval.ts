// Asking a person. An approver is a function; terminals, HTTP, MCP elicitation plug in here.
// Types and pure functions only, nothing of Node: the web console imports it as @toolbelt/core/approval.
import type { Effect, Preview } from './tool.js';
import { displayText, hasHiddenText } from './display-text.js';

export { displayText, escapeChar, hasHiddenText, ESCAPED_RANGES } from './display-text.js';

/**
 * Which front end a call came in through. The executor asks the approver that front end
 * contributed for its calls (see ApprovalRouter); a call that names none comes from `library`.
 */
export type CallOrigin = 'library' | 'terminal' | 'mcp' | 'http';

export const CALL_ORIGINS: readonly CallOrigin[] = ['library', 'terminal', 'mcp', 'http'];

export interface ApprovalRequest {
  callId: string;
  sessionId: string;
  tool: string;
  title?: string;
  description: string;
  input: unknown;
  effect: Effect;
  /** Why approval is needed: the rule or mode that said ask, plus the tool's own reason. */
  reason: string;
  preview?: Preview;
  warnings: string[];
  /** What "always" would remember, so the UI can say it ("always allow `npm run test`"). */
  remember: RememberTarget;
  runId?: string;
  agentId?: string;
  /** Where in the conversation the call comes from (the caller's `context`), for the person deciding. */
  context?: string;
  /** The front end the call came from; the executor always sets it. */
  origin?: CallOrigin;
}

/** What an "always approve" covers. */
export type RememberTarget =
  | { kind: 'tool'; tool: string }
  | { kind: 'prefix'; tool: string; prefix: string }
  | { kind: 'exact'; tool: string; command: string }
  | { kind: 'path'; tool: string; path: string };

/** How long an approval holds: this call, the session, or from now on. */
export type ApprovalScope = 'once' | 'session' | 'always';

export type ApprovalDecision =
  | {
      outcome: 'approve';
      scope?: ApprovalScope;
      /** What to remember instead of the request's `remember`, e.g. a directory for a path. Same tool only. */
      remember?: RememberTarget;
      by?: string;
    }
  | {
      outcome: 'reject';
      /** The person's words for the model. */
      message?: string;
      /** Replaces "The user rejected this call" when no person decided (non-interactive, timeout). */
      reason?: string;
      by?: string;
    };

export type Approver = (request: ApprovalRequest, signal: AbortSignal) => Promise<ApprovalDecision>;

/** For non-interactive use: anything that needs a person is not run. */
export const rejectAll: Approver = async (request) => ({
  outcome: 'reject',
  reason: `${request.tool} was not run: approval was required (${request.reason}) but no one can approve here (non-interactive). Tell the user; they can allow it with a rule in toolbelt.config.json or another --mode`,
  by: 'non-interactive',
});

export const approveAll: Approver = async () => ({ outcome: 'approve', scope: 'once' });

/** What "always" would remember, in words for a person (its command or path shown escaped, see displayText). */
export function describeRemember(target: RememberTarget): string {
  return displayText(rememberWords(target));
}

function rememberWords(target: RememberTarget): string {
  switch (target.kind) {
    case 'tool':
      return `every ${target.tool} call`;
    case 'prefix':
      return `${target.tool} commands starting with \`${target.prefix}\``;
    case 'exact':
      return `exactly \`${target.command}\``;
    case 'path':
      return `${target.tool} on ${target.path}`;
  }
}

/**
 * The warning a person confirms before a destructive call runs (undefined for any other call): a
 * front end that asks a person asks twice for these — approve, then confirm — so a reflex "y" to a
 * write never deletes anything.
 */
export function destructiveWarning(r: ApprovalRequest): string | undefined {
  if (r.effect !== 'destructive') return undefined;
  // The dialog shows the reason and the preview beside it; a command says here what it destroys.
  const command = r.preview?.kind === 'command' ? r.preview.classification?.replace(/^destructive:\s*/, '') : undefined;
  return displayText(command ? `This call is destructive: ${command}` : `This ${r.tool} call is destructive`);
}

function anyHidden(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return hasHiddenText(value);
  if (!value || typeof value !== 'object' || depth > 20) return false;
  return Object.entries(value).some(([k, v]) => hasHiddenText(k) || anyHidden(v, depth + 1));
}

/**
 * The warning a front end shows when anything of the request — its input, preview, reason,
 * context — holds control, bidi or invisible characters (shown escaped, see displayText), so
 * the person knows the escapes they see are really in the call; undefined otherwise.
 */
export function hiddenTextWarning(r: ApprovalRequest): string | undefined {
  if (!anyHidden(r)) return undefined;
  return 'This call holds control, bidi or invisible characters; they are shown escaped (\\e, \\r, <U+202E>…): what you see is what runs';
}
