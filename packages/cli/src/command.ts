// The shape of a CLI command: its flags as node:util parseArgs options, and a run function.
import type { ParseArgsConfig } from 'node:util';

export type Options = NonNullable<ParseArgsConfig['options']>;

export interface Io {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  /** True when we may prompt a person. */
  interactive: boolean;
}

export interface Command {
  name: string;
  usage: string;
  options: Options;
  /** Positional arguments allowed (default: none). */
  positionals?: boolean;
  run(values: Record<string, unknown>, positionals: string[], io: Io): Promise<number>;
}

/** Exit codes, the same for every command. */
export const EXIT = { ok: 0, toolError: 1, usage: 2, rejected: 3 } as const;

export class UsageError extends Error {}

/** Flags every command that builds an executor understands. */
export const COMMON_OPTIONS: Options = {
  root: { type: 'string', multiple: true },
  config: { type: 'string' },
  mode: { type: 'string' },
};
