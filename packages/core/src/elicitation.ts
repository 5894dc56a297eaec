// Asking a person a question in the middle of a call: an MCP server behind toolbelt that needs a
// value (elicitation/create) gets it from the one person of the call's front end. The question is
// a flat form (an object of strings, numbers, booleans and choices), the answer accept/decline/cancel.
import type { CallOrigin } from './approval.js';
import { OriginRouter } from './origin-router.js';

export type ElicitationValue = string | number | boolean | string[];

/** One field of the form: a primitive JSON Schema, as MCP's requestedSchema allows. */
export interface ElicitationField {
  type?: 'string' | 'number' | 'integer' | 'boolean' | 'array';
  title?: string;
  description?: string;
  default?: ElicitationValue;
  enum?: string[];
  oneOf?: { const: string; title?: string }[];
  items?: { enum?: string[]; anyOf?: { const: string; title?: string }[] };
  [key: string]: unknown;
}

export interface ElicitationSchema {
  type: 'object';
  properties: Record<string, ElicitationField>;
  required?: string[];
}

export interface ElicitationRequest {
  callId: string;
  sessionId: string;
  /** The tool whose call asks (a proxied `server__tool`). */
  tool: string;
  /** Who asks, in words for the person: `MCP server "github"`. */
  source: string;
  message: string;
  schema: ElicitationSchema;
  runId?: string;
  agentId?: string;
  origin?: CallOrigin;
}

export type ElicitationAnswer =
  { action: 'accept'; content: Record<string, ElicitationValue> } | { action: 'decline' } | { action: 'cancel' };

export type Elicitor = (request: ElicitationRequest, signal: AbortSignal) => Promise<ElicitationAnswer>;

export type ElicitorsByOrigin = Partial<Record<CallOrigin, Elicitor>>;

/** The default of every field that has one (SEP-1034). */
export function schemaDefaults(schema: ElicitationSchema): Record<string, ElicitationValue> {
  const out: Record<string, ElicitationValue> = {};
  for (const [key, field] of Object.entries(schema.properties ?? {}))
    if (field.default !== undefined) out[key] = field.default;
  return out;
}

/** `content` with the schema's defaults filled in where the person gave nothing. */
export function withDefaults(
  schema: ElicitationSchema,
  content: Record<string, ElicitationValue>,
): Record<string, ElicitationValue> {
  return { ...schemaDefaults(schema), ...content };
}

/** No person can answer here: the question is declined, and the server decides what that means. */
export const declineAll: Elicitor = async () => ({ action: 'decline' });

/**
 * For `--yes`: nobody is there, so accept with the schema's defaults. A required field without a
 * default cannot be answered that way, and the question is declined instead.
 */
export const acceptDefaults: Elicitor = async (request) => {
  const content = schemaDefaults(request.schema);
  const missing = (request.schema.required ?? []).filter((key) => content[key] === undefined);
  return missing.length ? { action: 'decline' } : { action: 'accept', content };
};

/** Which elicitor asks a question, by the front end its call came from. */
export class ElicitationRouter extends OriginRouter<Elicitor> {
  constructor(fallback: Elicitor = declineAll, elicitors: ElicitorsByOrigin = {}) {
    super(fallback, elicitors, 'an elicitor');
  }

  /** Asks the elicitor of the request's origin. */
  readonly ask: Elicitor = (request, signal) => this.for(request.origin)(request, signal);
}
