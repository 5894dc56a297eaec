// defineTool compiles a spec once; BaseTool is the same for those who prefer classes.
import type { z } from 'zod';
import { compileSchema, zod3Problem, type InputSchema, type JsonSchema } from './schema.js';
import { EFFECTS, TOOL_NAME, type Tool, type ToolContext, type ToolOutput, type ToolSpec } from './tool.js';

export function defineTool<S extends z.ZodType>(spec: ToolSpec<z.output<S>> & { input: S }): Tool<z.output<S>>;
export function defineTool<I = Record<string, unknown>>(spec: ToolSpec<I>): Tool<I>;
export function defineTool<I>(spec: ToolSpec<I>): Tool<I> {
  if (!TOOL_NAME.test(spec.name)) {
    throw new Error(`invalid tool name "${spec.name}": use 1-64 letters, digits, "_" or "-"`);
  }
  if (!spec.description?.trim()) throw new Error(`tool "${spec.name}" needs a description: models choose tools by it`);
  checkShape(spec);
  if (!spec.prepare && typeof spec.effect !== 'function' && !EFFECTS.includes(spec.effect!)) {
    throw new Error(
      `tool "${spec.name}" has unknown effect "${String(spec.effect)}"; use one of ${EFFECTS.join(', ')}`,
    );
  }
  if (spec.usualEffect !== undefined && !EFFECTS.includes(spec.usualEffect)) {
    throw new Error(
      `tool "${spec.name}" has unknown usualEffect "${String(spec.usualEffect)}"; use one of ${EFFECTS.join(', ')}`,
    );
  }
  for (const [which, schema] of [
    ['input', spec.input],
    ['output', spec.output],
  ] as const) {
    const zod3 = zod3Problem(schema);
    if (zod3) throw new Error(`tool "${spec.name}": the ${which} schema ${zod3}`);
  }
  const input = compileSchema(spec.input);
  if (input.jsonSchema.type !== undefined && input.jsonSchema.type !== 'object') {
    throw new Error(
      `tool "${spec.name}": the input schema must describe an object, not ${String(input.jsonSchema.type)}`,
    );
  }
  const output = spec.output ? compileSchema(spec.output) : undefined;
  const tool: Tool<I> = {
    ...spec,
    jsonSchema: input.jsonSchema,
    parse: input.parse,
  };
  if (output) (tool as { outputJsonSchema?: JsonSchema }).outputJsonSchema = output.jsonSchema;
  return Object.freeze(tool);
}

/** A tool runs either as `effect` + `execute` (+ `preview`) or as one `prepare` that returns all three. */
function checkShape<I>(spec: ToolSpec<I>): void {
  if (spec.prepare) {
    const extra = (['effect', 'preview', 'execute'] as const).filter((k) => spec[k] !== undefined);
    if (extra.length)
      throw new Error(
        `tool "${spec.name}" has prepare and ${extra.join(', ')}: prepare's invocation carries the effect, preview and run, so remove ${extra.join(', ')} (set usualEffect for listings)`,
      );
    return;
  }
  if (typeof spec.execute !== 'function')
    throw new Error(`tool "${spec.name}" needs execute(input, ctx), or prepare(input, ctx) returning its invocation`);
  if (spec.effect === undefined)
    throw new Error(`tool "${spec.name}" needs an effect: one of ${EFFECTS.join(', ')}, or a function of the input`);
}

/** Class form: subclasses set name, description, schema and effect, and implement execute. */
export abstract class BaseTool<I> implements Tool<I> {
  abstract readonly name: string;
  abstract readonly description: string;
  abstract readonly input: InputSchema<I>;
  abstract readonly effect: NonNullable<Tool<I>['effect']>;
  abstract execute(input: I, ctx: ToolContext): Promise<ToolOutput | string> | ToolOutput | string;

  private compiled?: ReturnType<typeof compileSchema<I>>;
  private get compiledInput() {
    if (this.input === undefined) {
      // The classic shape (`schema`, getConfirmation) has its own base class; say so rather than fail each call.
      throw new Error(
        `tool "${this.name}" has no \`input\` schema: this BaseTool takes input and effect; for a class with \`schema\` (and getConfirmation), extend BaseTool from '@toolbelt/core/classic'`,
      );
    }
    this.compiled ??= compileSchema(this.input);
    return this.compiled;
  }
  get jsonSchema(): JsonSchema {
    return this.compiledInput.jsonSchema;
  }
  parse(raw: unknown) {
    return this.compiledInput.parse(raw);
  }
}
