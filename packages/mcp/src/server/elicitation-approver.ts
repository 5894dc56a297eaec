// Approval for calls that arrive over MCP: ask the person through the client's elicitation (form
// mode) when it has it; otherwise say no, and remember that nobody could be asked, so the call can
// come back as an error that tells the model how the user can allow it.
import {
  describeRemember,
  destructiveWarning,
  displayText,
  hiddenTextWarning,
  MODE_TABLE,
  MODES,
  rejectAll,
  type ApprovalDecision,
  type ApprovalRequest,
  type Approver,
  type Preview,
  type RememberTarget,
} from '@toolbelt/core';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { RequestId } from '@modelcontextprotocol/sdk/types.js';

/** The MCP request a call came from. */
export interface McpCaller {
  server: Server;
  requestId: RequestId;
  /** Set when the call needed approval and the client could not be asked. */
  unasked?: ApprovalRequest;
}

const MAX_SHOWN = 4000;
// A person may take a while; the executor's approval timeout and the call's signal end the wait.
const NO_SDK_TIMEOUT = 24 * 60 * 60_000;

function cut(text: string, max = MAX_SHOWN): string {
  return text.length > max ? `${text.slice(0, max)}\n... (${text.length - max} more characters)` : text;
}

function showPreview(p: Preview): string {
  switch (p.kind) {
    case 'diff':
      return `Changes to ${p.path}:\n${cut(p.diff)}`;
    case 'command':
      return `Command: ${p.command}\nIn: ${p.cwd}${p.classification ? `\nClassified: ${p.classification}` : ''}`;
    case 'url':
      return `URL: ${p.method ?? 'GET'} ${p.url}`;
    case 'text':
      return cut(p.text);
  }
}

export function approvalMessage(r: ApprovalRequest): string {
  const lines = [`Allow ${r.title ? `${r.title} (${r.tool})` : r.tool}? Effect: ${r.effect}.`];
  if (r.context) lines.push(`Context: ${r.context}`);
  lines.push(`Asked because: ${r.reason}.`);
  if (r.preview) lines.push(showPreview(r.preview));
  lines.push(`Input: ${cut(JSON.stringify(r.input, null, 2), 2000)}`);
  for (const w of r.warnings) lines.push(`Warning: ${w}`);
  const hidden = hiddenTextWarning(r);
  if (hidden) lines.push(`${hidden}.`);
  const destructive = destructiveWarning(r);
  if (destructive) lines.push(`${destructive}. To run it, approve and tick the confirmation.`);
  // The person reads this in their MCP client: control, bidi and invisible characters shown escaped.
  return displayText(lines.join('\n'));
}

/** The form; a destructive call has one more field, a confirmation the person ticks. */
function requestedSchema(remember: RememberTarget, destructive: boolean) {
  return {
    type: 'object' as const,
    properties: {
      ...(destructive
        ? { confirm: { type: 'boolean' as const, title: 'Yes, run this destructive call', default: false } }
        : {}),
      decision: {
        type: 'string' as const,
        title: 'Decision',
        enum: ['approve', 'always', 'reject'],
        enumNames: ['Approve once', `Always approve ${describeRemember(remember)}`, 'Reject'],
      },
      message: {
        type: 'string' as const,
        title: 'Message to the agent',
        description: 'Optional: why you rejected it, or what to do instead.',
      },
    },
    required: ['decision'],
  };
}

/** The rule that would let this call through, as toolbelt.config.json text. */
function ruleFor(target: RememberTarget): string {
  const rule: Record<string, string> = { tool: target.tool };
  if (target.kind === 'prefix') rule.command = target.prefix;
  if (target.kind === 'exact') rule.command = target.command;
  if (target.kind === 'path') rule.path = target.path;
  rule.action = 'allow';
  return JSON.stringify({ rules: [rule] });
}

export function approvalRequiredMessage(r: ApprovalRequest): string {
  const mode = MODES.find((m) => MODE_TABLE[m][r.effect] === 'allow');
  return (
    `${r.tool} was not run: it needs approval (${r.reason}), and this MCP client cannot ask the user (it does not support elicitation). ` +
    `Tell the user. To allow it they can add a rule to toolbelt.config.json, e.g. ${ruleFor(r.remember)}` +
    (mode ? `, or restart \`toolbelt mcp\` with --mode ${mode}` : '') +
    '.'
  );
}

/**
 * Asks about a call through the MCP client that made it (`callerOf` finds its request); a call no
 * client of this server made goes to `fallback`.
 */
export function elicitationApprover(
  callerOf: (callId: string) => McpCaller | undefined,
  fallback: Approver = rejectAll,
): Approver {
  return async (request, signal): Promise<ApprovalDecision> => {
    const origin = callerOf(request.callId);
    if (!origin) return fallback(request, signal);
    if (!origin.server.getClientCapabilities()?.elicitation?.form) {
      origin.unasked = request;
      return { outcome: 'reject', message: approvalRequiredMessage(request), by: 'toolbelt-mcp' };
    }
    const answer = await origin.server.elicitInput(
      {
        mode: 'form',
        message: approvalMessage(request),
        requestedSchema: requestedSchema(request.remember, request.effect === 'destructive'),
      },
      { signal, relatedRequestId: origin.requestId, timeout: NO_SDK_TIMEOUT },
    );
    const message =
      typeof answer.content?.message === 'string' && answer.content.message.trim()
        ? answer.content.message.trim()
        : undefined;
    if (answer.action === 'accept') {
      const decision = answer.content?.decision;
      const unconfirmed = request.effect === 'destructive' && answer.content?.confirm !== true;
      if ((decision === 'approve' || decision === 'always') && unconfirmed) {
        return {
          outcome: 'reject',
          message: 'the user approved but did not confirm this destructive call; ask before trying it again',
          by: 'mcp-elicitation',
        };
      }
      if (decision === 'approve') return { outcome: 'approve', scope: 'once', by: 'mcp-elicitation' };
      if (decision === 'always') return { outcome: 'approve', scope: 'always', by: 'mcp-elicitation' };
      return { outcome: 'reject', ...(message ? { message } : {}), by: 'mcp-elicitation' };
    }
    if (answer.action === 'decline')
      return { outcome: 'reject', ...(message ? { message } : {}), by: 'mcp-elicitation' };
    return {
      outcome: 'reject',
      message: 'the user dismissed the approval request without deciding',
      by: 'mcp-elicitation',
    };
  };
}
