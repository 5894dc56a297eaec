// The approval dialog in a terminal: tool, parameters, preview, then y / n / a / ?. Everything
// the call brings (command, file name, diff, reason, context, description) is shown through
// displayText: its control, bidi and invisible characters escaped, so what is read is what runs.
import { TerminalPrompt } from './prompt.js';
import {
  describeRemember,
  destructiveWarning,
  displayText,
  hiddenTextWarning,
  type ApprovalDecision,
  type ApprovalRequest,
  type Approver,
  type Preview,
} from '@toolbelt/core';

const bold = (s: string, color: boolean) => (color ? `\x1b[1m${s}\x1b[0m` : s);

/** The call's text as shown: escaped, each escape in reverse video when in colour. */
const shown = (s: string, color = false) => displayText(s, color ? (e) => `\x1b[7m${e}\x1b[27m` : undefined);

function previewText(preview: Preview): string {
  switch (preview.kind) {
    case 'diff':
      return `--- preview: ${preview.path} ---\n${preview.diff}`;
    case 'command':
      return `--- command (cwd ${preview.cwd}) ---\n$ ${preview.command}${preview.classification ? `\n(${preview.classification})` : ''}`;
    case 'url':
      return `--- ${preview.method ?? 'GET'} ${preview.url} ---`;
    case 'text':
      return preview.text;
  }
}

function renderPreview(preview: Preview, color = false): string {
  return shown(previewText(preview), color);
}

export function renderRequest(req: ApprovalRequest, color = false): string {
  const lines = [
    bold(shown(`Tool approval: ${req.tool}`), color) + ` (${shown(req.effect)})`,
    ...(req.context ? [`Context: ${shown(req.context, color)}`] : []),
    `Why asked: ${shown(req.reason, color)}`,
    `Parameters: ${shown(JSON.stringify(req.input, null, 2), color)}`,
  ];
  if (req.preview) lines.push(renderPreview(req.preview, color));
  for (const w of req.warnings) lines.push(`warning: ${shown(w, color)}`);
  const hidden = hiddenTextWarning(req);
  if (hidden) lines.push(bold(`${hidden}.`, color));
  const destructive = destructiveWarning(req);
  if (destructive) lines.push(bold(`${destructive}.`, color));
  return lines.join('\n');
}

/** Prompts on the given streams; one question at a time even if calls run in parallel. */
export type ClosableApprover = Approver & { close(): void };

export function terminalApprover(
  input: NodeJS.ReadableStream,
  output: NodeJS.WritableStream,
  opts: { color?: boolean; prompt?: TerminalPrompt } = {},
): ClosableApprover {
  const prompt = opts.prompt ?? new TerminalPrompt(input, output);
  const ask = (question: string) => prompt.ask(question);
  // A destructive call is confirmed by typing "yes"; anything else goes back to the question.
  const confirmed = async (req: ApprovalRequest) => {
    const warning = destructiveWarning(req);
    if (!warning) return true;
    const typed = await ask(`${warning}.\nType "yes" to run it, anything else to go back: `);
    return typed?.trim().toLowerCase() === 'yes';
  };
  const once = async (req: ApprovalRequest, signal: AbortSignal): Promise<ApprovalDecision> => {
    if (signal.aborted) return { outcome: 'reject', message: 'the call was cancelled', by: 'terminal' };
    output.write(`\n${renderRequest(req, opts.color)}\n`);
    for (;;) {
      const raw = await ask(`Approve? [y]es / [n]o / [a]lways (${describeRemember(req.remember)}) / [?] more: `);
      if (raw === undefined)
        return { outcome: 'reject', message: 'no answer: the terminal input closed', by: 'terminal' };
      const answer = raw.toLowerCase();
      const scope =
        answer === 'y' || answer === 'yes' ? 'once' : answer === 'a' || answer === 'always' ? 'always' : undefined;
      if (scope && (await confirmed(req))) return { outcome: 'approve', scope, by: 'terminal' };
      if (scope) continue;
      if (answer === 'n' || answer === 'no') {
        const message = await ask('Message for the model (enter to skip): ');
        return message ? { outcome: 'reject', message, by: 'terminal' } : { outcome: 'reject', by: 'terminal' };
      }
      if (answer === '?') {
        output.write(
          `\n${shown(`${req.tool}: ${req.description}`, opts.color)}\nEffect: ${shown(req.effect)}. "Always" remembers ${describeRemember(req.remember)} in .toolbelt/approvals.json.\n`,
        );
        continue;
      }
      output.write('Please answer y, n, a or ?.\n');
    }
  };
  const approver: Approver = (req, signal) => prompt.serial(() => once(req, signal));
  return Object.assign(approver, { close: () => prompt.close() });
}
