// The JSON Schema of toolbelt.config.json, for editors: `toolbelt init` writes it beside the config
// and points "$schema" at it, so keys complete and mistakes are underlined as they are typed.
import { z } from 'zod';
import { configFileSchema } from './aliases.js';

export const SCHEMA_FILE = 'toolbelt.config.schema.json';

/** Draft-07, which every editor's JSON support reads; the aliases of other designs included. */
export function configJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(configFileSchema, { io: 'input', target: 'draft-7' }) as Record<string, unknown>;
  return {
    ...schema,
    title: 'toolbelt.config.json',
    description: 'toolbelt: policy, tools, MCP servers and gateway settings (docs/configuration.md)',
  };
}
