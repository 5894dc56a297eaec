// The classic base class: a subclass gives name, description and a Zod schema, and implements only
// execute. Validation and the JSON Schema come from the schema, as for a tool made with defineTool.
import type { z } from 'zod';
import { compileSchema, type CompiledSchema } from '../schema.js';
import type { Tool, ToolDefinition, ToolExecutionOptions, ToolExecutionResult, ValidationResult } from './types.js';

export abstract class BaseTool<TParams = Record<string, unknown>> implements Tool<TParams> {
  abstract readonly name: string;
  abstract readonly description: string;
  abstract readonly schema: z.ZodType<TParams>;
  /** Shown to people in place of the name, when set. */
  readonly displayName?: string;

  private compiledFor?: z.ZodType<TParams>;
  private compiled?: CompiledSchema<TParams>;

  /** The schema compiled once (again only if a subclass swaps it). */
  protected get compiledSchema(): CompiledSchema<TParams> {
    if (!this.schema)
      throw new Error(`tool "${this.name}" has no schema: set \`readonly schema = z.object({...})\` in the class`);
    if (this.compiledFor !== this.schema) {
      this.compiled = compileSchema(this.schema);
      this.compiledFor = this.schema;
    }
    return this.compiled!;
  }

  get definition(): ToolDefinition {
    return {
      name: this.name,
      ...(this.displayName ? { displayName: this.displayName } : {}),
      description: this.description,
      parameters: this.compiledSchema.jsonSchema,
    };
  }

  validate(params: TParams): ValidationResult {
    const parsed = this.compiledSchema.parse(params);
    return parsed.ok ? { valid: true } : { valid: false, error: parsed.message };
  }

  abstract execute(params: TParams, options?: ToolExecutionOptions): Promise<ToolExecutionResult>;
}
