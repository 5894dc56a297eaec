// Tool definitions in each provider's format. Pure data out; no SDK imports. Each format has its
// own type, checked against the official SDKs' types (formats.types.ts), so the output goes to
// openai, @anthropic-ai/sdk or @google/genai without a cast.
import type { JsonSchema } from './schema.js';
import type { Effect, Tool } from './tool.js';

/** A tool's input as JSON Schema: always an object (defineTool refuses any other). */
export interface ObjectJsonSchema {
  type: 'object';
  properties?: Record<string, JsonSchema>;
  required?: string[];
  [keyword: string]: unknown;
}

/** Name, description and parameters: the shape most frameworks take. */
export interface JsonSchemaToolDefinition {
  name: string;
  description: string;
  parameters: ObjectJsonSchema;
}

/** OpenAI Chat Completions: `ChatCompletionTool`. */
export interface OpenAIChatTool {
  type: 'function';
  function: { name: string; description: string; parameters: ObjectJsonSchema };
}

/**
 * OpenAI Responses API: `FunctionTool`. `strict` is false because strict mode wants every
 * parameter required and the API defaults it to true; ours are validated by toolbelt anyway.
 */
export interface OpenAIResponsesTool {
  type: 'function';
  name: string;
  description: string;
  parameters: ObjectJsonSchema;
  strict: false;
}

/** Anthropic Messages: `Tool`. */
export interface AnthropicTool {
  name: string;
  description: string;
  input_schema: ObjectJsonSchema;
}

/** Gemini (@google/genai): `FunctionDeclaration`, the parameters as JSON Schema. */
export interface GeminiFunctionDeclaration {
  name: string;
  description: string;
  parametersJsonSchema: ObjectJsonSchema;
}

/** The shape of an AI SDK tool() without execute; wrap inputSchema with the SDK's jsonSchema(). */
export interface VercelAiToolDefinition {
  name: string;
  description: string;
  inputSchema: ObjectJsonSchema;
}

/** MCP tools/list: `Tool`. */
export interface McpToolDefinition {
  name: string;
  title?: string;
  description: string;
  inputSchema: ObjectJsonSchema;
  outputSchema?: JsonSchema;
  annotations: McpAnnotations;
}

/** Each format's name and the type of one tool's definition in it. */
export interface ProviderTools {
  'json-schema': JsonSchemaToolDefinition;
  openai: OpenAIChatTool;
  'openai-responses': OpenAIResponsesTool;
  anthropic: AnthropicTool;
  gemini: GeminiFunctionDeclaration;
  mcp: McpToolDefinition;
  'vercel-ai': VercelAiToolDefinition;
}

export type ProviderFormat = keyof ProviderTools;
/** One tool's definition in `F`; for a union of formats, the union of their shapes. */
export type ProviderTool<F extends ProviderFormat = ProviderFormat> = ProviderTools[F];
export const PROVIDER_FORMATS: readonly ProviderFormat[] = [
  'json-schema',
  'openai',
  'openai-responses',
  'anthropic',
  'gemini',
  'mcp',
  'vercel-ai',
];

export interface McpAnnotations {
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

/** The effect to show for a tool before any input is known; undefined when it declares none. */
export function usualEffectOf(tool: Pick<Tool, 'effect' | 'usualEffect'>): Effect | undefined {
  return typeof tool.effect === 'string' ? tool.effect : tool.usualEffect;
}

/**
 * MCP hints from the tool's usual effect: `read` is read-only; `write` is not destructive unless
 * the tool says it may be (a move that replaces a file); `execute` is, unless the tool says not; a
 * tool with a per-call effect and no usual effect is unknown ahead of time, so we claim the worst.
 * Only what differs from the protocol's defaults (readOnly false, idempotent false, openWorld true)
 * is sent, and destructive/idempotent only where they mean something (not read-only): a client
 * reads the same hints, and every tools/list answer is a few hundred tokens smaller. The title is
 * the tool's own `title`, not repeated here.
 */
export function annotationsFor(tool: Tool): McpAnnotations {
  const effect = usualEffectOf(tool);
  const openWorld = tool.annotations?.openWorld ?? false;
  const hints: McpAnnotations = {};
  if (effect === 'read') hints.readOnlyHint = true;
  else {
    hints.destructiveHint = effect === 'destructive' ? true : (tool.annotations?.destructive ?? effect !== 'write');
    if (tool.annotations?.idempotent) hints.idempotentHint = true;
  }
  if (!openWorld) hints.openWorldHint = false;
  return hints;
}

/**
 * A display title that only re-spells the name ("Read file" for read_file) is left out: a client
 * shows the name then, and the list is a few tokens a tool shorter.
 */
function sameWords(title: string, name: string): boolean {
  return (
    title
      .toLowerCase()
      .replace(/[\s_-]+/g, ' ')
      .trim() ===
    name
      .toLowerCase()
      .replace(/[\s_-]+/g, ' ')
      .trim()
  );
}

/** The input schema with its `type: "object"` said, as every provider requires (defineTool allows it left out). */
export function objectSchema(schema: JsonSchema): ObjectJsonSchema {
  return schema.type === 'object' ? (schema as ObjectJsonSchema) : { ...schema, type: 'object' };
}

export function toProviderFormat<F extends ProviderFormat>(tool: Tool, format: F): ProviderTool<F>;
export function toProviderFormat(tool: Tool, format: ProviderFormat): ProviderTool {
  const { name, description } = tool;
  const parameters = objectSchema(tool.jsonSchema);
  switch (format) {
    case 'json-schema':
      return { name, description, parameters };
    case 'openai':
      return { type: 'function', function: { name, description, parameters } };
    case 'openai-responses':
      return { type: 'function', name, description, parameters, strict: false };
    case 'anthropic':
      return { name, description, input_schema: parameters };
    case 'gemini':
      return { name, description, parametersJsonSchema: toGeminiSchema(parameters) as ObjectJsonSchema };
    case 'vercel-ai':
      return { name, description, inputSchema: parameters };
    case 'mcp': {
      const out: McpToolDefinition = { name, description, inputSchema: parameters, annotations: annotationsFor(tool) };
      if (tool.title && !sameWords(tool.title, name)) out.title = tool.title;
      if (tool.outputJsonSchema) out.outputSchema = tool.outputJsonSchema;
      return out;
    }
  }
}

export function toProviderFormats<F extends ProviderFormat>(tools: Tool[], format: F): ProviderTool<F>[] {
  return tools.map((t) => toProviderFormat(t, format));
}

/**
 * The JSON Schema keywords Gemini's `parametersJsonSchema` reads; others are left out, so a schema
 * from any tool (an MCP server's, a config's) is never refused for a keyword the model ignores.
 */
const GEMINI_KEYS = new Set([
  '$ref',
  '$defs',
  'type',
  'format',
  'title',
  'description',
  'enum',
  'const',
  'default',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'prefixItems',
  'minItems',
  'maxItems',
  'minimum',
  'maximum',
  'minLength',
  'maxLength',
  'pattern',
  'anyOf',
  'oneOf',
]);
const SCHEMA_MAPS = new Set(['properties', '$defs']);
const SCHEMA_LISTS = new Set(['anyOf', 'oneOf', 'prefixItems']);

function toGeminiSchema(schema: JsonSchema): JsonSchema {
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (!GEMINI_KEYS.has(key)) continue;
    if (SCHEMA_MAPS.has(key) && isSchema(value)) {
      out[key] = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, isSchema(v) ? toGeminiSchema(v) : v]));
    } else if (SCHEMA_LISTS.has(key) && Array.isArray(value)) {
      out[key] = value.map((v: unknown) => (isSchema(v) ? toGeminiSchema(v) : v));
    } else if ((key === 'items' || key === 'additionalProperties') && isSchema(value)) {
      out[key] = toGeminiSchema(value);
    } else {
      out[key] = value;
    }
  }
  return out;
}

function isSchema(value: unknown): value is JsonSchema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
