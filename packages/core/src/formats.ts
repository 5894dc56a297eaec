// Tool definitions in each provider's format. Pure data out; no SDK imports.
import type { JsonSchema } from './schema.js';
import type { Effect, Tool } from './tool.js';

export type ProviderFormat = 'json-schema' | 'openai' | 'anthropic' | 'gemini' | 'mcp' | 'vercel-ai';
export const PROVIDER_FORMATS: readonly ProviderFormat[] = ['json-schema', 'openai', 'anthropic', 'gemini', 'mcp', 'vercel-ai'];

export interface McpAnnotations {
  title?: string;
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

/** The effect to show for a tool before any input is known; undefined when it declares none. */
export function usualEffectOf(tool: Pick<Tool, 'effect' | 'usualEffect'>): Effect | undefined {
  return typeof tool.effect === 'string' ? tool.effect : tool.usualEffect;
}

/**
 * MCP hints from the tool's usual effect: `read` is read-only; `write` is not destructive unless
 * the tool says it may be (a move that replaces a file); `execute` is, unless the tool says not; a
 * tool with a per-call effect and no usual effect is unknown ahead of time, so we claim the worst.
 */
export function annotationsFor(tool: Tool): McpAnnotations {
  const effect = usualEffectOf(tool);
  const destructive = effect === 'read' ? false : effect === 'destructive' ? true : (tool.annotations?.destructive ?? effect !== 'write');
  return {
    ...(tool.title ? { title: tool.title } : {}),
    readOnlyHint: effect === 'read',
    destructiveHint: destructive,
    idempotentHint: tool.annotations?.idempotent ?? effect === 'read',
    openWorldHint: tool.annotations?.openWorld ?? false,
  };
}

export function toProviderFormat(tool: Tool, format: ProviderFormat): Record<string, unknown> {
  const parameters = tool.jsonSchema;
  switch (format) {
    case 'json-schema':
      return { name: tool.name, description: tool.description, parameters };
    case 'openai':
      return { type: 'function', function: { name: tool.name, description: tool.description, parameters } };
    case 'anthropic':
      return { name: tool.name, description: tool.description, input_schema: parameters };
    case 'gemini':
      return { name: tool.name, description: tool.description, parameters: toGeminiSchema(parameters) };
    case 'vercel-ai':
      // The shape of an AI SDK tool() without execute; wrap inputSchema with the SDK's jsonSchema().
      return { name: tool.name, description: tool.description, inputSchema: parameters };
    case 'mcp': {
      const out: Record<string, unknown> = { name: tool.name, description: tool.description, inputSchema: parameters, annotations: annotationsFor(tool) };
      if (tool.title) out.title = tool.title;
      if (tool.outputJsonSchema) out.outputSchema = tool.outputJsonSchema;
      return out;
    }
  }
}

export function toProviderFormats(tools: Tool[], format: ProviderFormat): Record<string, unknown>[] {
  return tools.map((t) => toProviderFormat(t, format));
}

// Gemini function declarations accept an OpenAPI subset; other keywords are rejected by the API.
const GEMINI_KEYS = new Set([
  'type',
  'format',
  'description',
  'nullable',
  'enum',
  'maxItems',
  'minItems',
  'properties',
  'required',
  'items',
  'minimum',
  'maximum',
  'anyOf',
  'minLength',
  'maxLength',
  'pattern',
  'title',
  'default',
]);

function toGeminiSchema(schema: JsonSchema): JsonSchema {
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (!GEMINI_KEYS.has(key)) continue;
    if (key === 'properties' && value && typeof value === 'object') {
      out.properties = Object.fromEntries(Object.entries(value as Record<string, JsonSchema>).map(([k, v]) => [k, toGeminiSchema(v)]));
    } else if (key === 'items' && value && typeof value === 'object') {
      out.items = toGeminiSchema(value as JsonSchema);
    } else if (key === 'anyOf' && Array.isArray(value)) {
      out.anyOf = value.map((v) => toGeminiSchema(v as JsonSchema));
    } else if (key === 'type' && Array.isArray(value)) {
      // ["string","null"] -> string + nullable
      const types = value.filter((t) => t !== 'null');
      out.type = types[0];
      if (types.length !== value.length) out.nullable = true;
    } else {
      out[key] = value;
    }
  }
  return out;
}
