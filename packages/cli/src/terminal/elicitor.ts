// A server's question in the terminal: who asks and why, then each field of its form in turn
// (enter takes the default), checked against the field's type and choices before it is sent.
import {
  displayText,
  type ElicitationAnswer,
  type ElicitationField,
  type ElicitationRequest,
  type ElicitationValue,
  type Elicitor,
} from '@toolbelt/core';
import type { TerminalPrompt } from './prompt.js';

type Parsed = { value: ElicitationValue | undefined } | { problem: string };

function choicesOf(field: ElicitationField): string[] | undefined {
  return field.enum ?? field.oneOf?.map((o) => o.const) ?? field.items?.enum ?? field.items?.anyOf?.map((o) => o.const);
}

/** One typed line as the field's value; empty is "no value" (the default, if any, applies). */
function parseField(field: ElicitationField, raw: string): Parsed {
  if (raw === '') return { value: undefined };
  const choices = choicesOf(field);
  if (field.type === 'array') {
    const picked = raw
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    const bad = picked.filter((p) => choices && !choices.includes(p));
    return bad.length
      ? { problem: `not a choice: ${bad.join(', ')}; pick from ${choices!.join(', ')}` }
      : { value: picked };
  }
  if (choices && !choices.includes(raw)) return { problem: `pick one of ${choices.join(', ')}` };
  if (field.type === 'boolean') {
    if (/^(y|yes|true)$/i.test(raw)) return { value: true };
    if (/^(n|no|false)$/i.test(raw)) return { value: false };
    return { problem: 'answer y or n' };
  }
  if (field.type === 'number' || field.type === 'integer') {
    const n = Number(raw);
    if (!Number.isFinite(n) || (field.type === 'integer' && !Number.isInteger(n)))
      return { problem: `enter ${field.type === 'integer' ? 'a whole number' : 'a number'}` };
    return { value: n };
  }
  return { value: raw };
}

function label(key: string, field: ElicitationField, required: boolean): string {
  const choices = choicesOf(field);
  const hints = [
    choices
      ? `${field.type === 'array' ? 'any of' : 'one of'} ${choices.join(', ')}`
      : field.type === 'boolean'
        ? 'y/n'
        : field.type,
    field.default !== undefined
      ? `default ${Array.isArray(field.default) ? field.default.join(',') : String(field.default)}`
      : undefined,
    required ? 'required' : undefined,
  ].filter(Boolean);
  // The server's words, shown escaped: none of its control or bidi characters reach the terminal.
  return displayText(
    `${field.title ?? key}${field.description ? ` — ${field.description}` : ''} (${hints.join(', ')}): `,
  );
}

async function fill(prompt: TerminalPrompt, req: ElicitationRequest): Promise<ElicitationAnswer> {
  const content: Record<string, ElicitationValue> = {};
  const required = new Set(req.schema.required ?? []);
  for (const [key, field] of Object.entries(req.schema.properties)) {
    for (;;) {
      const raw = await prompt.ask(label(key, field, required.has(key)));
      if (raw === undefined) return { action: 'cancel' };
      const parsed = parseField(field, raw);
      const value = 'value' in parsed ? (parsed.value ?? field.default) : undefined;
      if ('problem' in parsed) prompt.output.write(`${displayText(parsed.problem)}.\n`);
      else if (value === undefined && required.has(key)) prompt.output.write('This one is required.\n');
      else {
        if (value !== undefined) content[key] = value;
        break;
      }
    }
  }
  return { action: 'accept', content };
}

export function terminalElicitor(prompt: TerminalPrompt): Elicitor {
  const once = async (req: ElicitationRequest, signal: AbortSignal): Promise<ElicitationAnswer> => {
    if (signal.aborted) return { action: 'cancel' };
    prompt.output.write(`\n${displayText(`${req.source} asks (during ${req.tool}):\n${req.message}`)}\n`);
    for (;;) {
      const raw = await prompt.ask('Answer? [y]es / [n]o (decline) / [c]ancel: ');
      if (raw === undefined || /^c(ancel)?$/i.test(raw)) return { action: 'cancel' };
      if (/^n(o)?$/i.test(raw)) return { action: 'decline' };
      if (/^y(es)?$/i.test(raw)) return fill(prompt, req);
      prompt.output.write('Please answer y, n or c.\n');
    }
  };
  return (req, signal) => prompt.serial(() => once(req, signal));
}
