// The classic Tool API: the class-and-registry shape many agents were first written in. Types only;
// adapt.ts maps them onto the contract in ../tool.ts, so a classic tool runs in the one executor.
import type { JsonSchema } from '../schema.js';
import type { Effect } from '../tool.js';

/** What a model is shown of a tool. */
export interface ToolDefinition {
  name: string;
  displayName?: string;
  description: string;
  parameters: JsonSchema;
}

/** Whether a call needs a person's yes; `type` becomes the call's effect (see docs/classic-api.md). */
export interface ToolConfirmation {
  required: boolean;
  message?: string;
  type?: Effect;
}

export interface ToolExecutionOptions {
  signal?: AbortSignal;
  /** Called with each chunk of output as it arrives. */
  onOutput?: (chunk: string) => void;
  /** Where relative paths and commands start. */
  cwd?: string;
}

export interface ToolExecutionResult {
  /** What the model sees. */
  content: string;
  /** What a person sees, when it differs. */
  displayContent?: string;
  isError?: boolean;
  metadata?: Record<string, unknown>;
}

export interface ValidationResult {
  valid: boolean;
  error?: string;
}

export interface Tool<TParams = Record<string, unknown>> {
  readonly definition: ToolDefinition;
  validate(params: TParams): ValidationResult;
  getConfirmation?(params: TParams): ToolConfirmation;
  execute(params: TParams, options?: ToolExecutionOptions): Promise<ToolExecutionResult>;
}
