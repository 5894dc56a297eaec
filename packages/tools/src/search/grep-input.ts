// grep's input: the schema a model reads, the checks past it, and what the engines are given (the
// query, the compiled pattern, the engine to run).
import { z } from 'zod';
import { ToolError } from '@toolbelt/core';
import type { SearchSettings } from './engine.js';
import { compilePattern, type CompiledPattern } from './regex.js';
import type { GrepQuery } from './results.js';
import { typeGlobs } from '../walk/file-types.js';

export const DEFAULT_MAX = 200;
/**
 * Far beyond any pattern written by hand; a longer one is pasted text, and compiling or analysing
 * megabytes of pattern costs seconds and gigabytes (and is too long for rg's argument list).
 */
export const MAX_PATTERN_CHARS = 10_000;
const MAX_CONTEXT = 50;

export const description = `Search files by regex (JavaScript syntax, max ${MAX_PATTERN_CHARS.toLocaleString('en-US')} chars); skips binary, .git, gitignored unless include_ignored. Counts matches past max_results (default ${DEFAULT_MAX}).`;

export const input = z.object({
  pattern: z.string(),
  path: z.string().optional(),
  glob: z
    .union([z.string(), z.array(z.string())])
    .optional()
    .describe('Files, e.g. "*.{ts,js}"; "!" excludes.'),
  type: z.string().optional().describe('e.g. "ts,py".'),
  case_insensitive: z.boolean().optional(),
  literal: z.boolean().optional(),
  // `lines` is content as grep -n prints it (file:line:text), for callers that parse such lines.
  output_mode: z.enum(['content', 'files_with_matches', 'count', 'lines']).default('content'),
  // grep's -C, -B and -A: a side given on its own wins over context. Their bound of 50 is checked in
  // validate, so the definitions a model reads do not repeat it three times.
  context: z.number().int().min(0).max(50).optional(),
  before: z.number().int().min(0).optional(),
  after: z.number().int().min(0).optional(),
  multiline: z.boolean().optional().describe('Match across lines.'),
  max_results: z.number().int().min(1).max(5000).optional(),
  include_ignored: z.boolean().optional(),
});

export type Input = z.infer<typeof input>;

function contextTooLong({ before, after }: Input): string | undefined {
  const side = (before ?? 0) > MAX_CONTEXT ? 'before' : (after ?? 0) > MAX_CONTEXT ? 'after' : undefined;
  return side ? `\`${side}\` is at most ${MAX_CONTEXT} lines` : undefined;
}

function patternTooLong(pattern: string): string | undefined {
  if (pattern.length <= MAX_PATTERN_CHARS) return undefined;
  return `\`pattern\` is ${pattern.length.toLocaleString('en-US')} characters; the limit is ${MAX_PATTERN_CHARS.toLocaleString('en-US')}. Search for a shorter distinctive part of the text, such as one line of it.`;
}

/** The checks the schema does not make, in the words a model needs to fix the call. */
export function validate(args: Input): string | undefined {
  return patternTooLong(args.pattern) ?? contextTooLong(args);
}

export function queryOf(
  args: Input,
  root: string,
  isFile: boolean,
  typeGlobs: string[],
  signal: AbortSignal,
): GrepQuery {
  return {
    root,
    isFile,
    mode: args.output_mode === 'lines' ? 'content' : (args.output_mode ?? 'content'),
    before: args.before ?? args.context ?? 0,
    after: args.after ?? args.context ?? 0,
    multiline: args.multiline === true,
    globs: typeof args.glob === 'string' ? [args.glob] : (args.glob ?? []),
    typeGlobs,
    ignoreFiles: args.include_ignored !== true,
    maxResults: args.max_results ?? DEFAULT_MAX,
    signal,
  };
}

/** The pattern compiled and the file types expanded to globs; a bad one is the caller's to fix. */
export function compileArgs(args: Input): { pattern: CompiledPattern; types: string[] } {
  try {
    const pattern = compilePattern(args.pattern, {
      caseInsensitive: args.case_insensitive,
      literal: args.literal,
      multiline: args.multiline,
    });
    return { pattern, types: args.type ? typeGlobs(args.type) : [] };
  } catch (err) {
    throw new ToolError('INVALID_PARAMS', (err as Error).message, { recoverable: true });
  }
}

/** rg when it was found and not turned off, the built-in engine otherwise; rg demanded but missing is an error. */
export function chooseEngine(
  settings: SearchSettings,
  path: string | undefined,
): { engine: 'js' | 'rg'; path: string | undefined } {
  const engine = settings.engine ?? 'auto';
  if (engine === 'rg' && !path) {
    throw new ToolError(
      'EXECUTION_FAILED',
      `search.engine is "rg" but no rg binary was found${settings.rgPath ? ` at ${settings.rgPath}` : ' on PATH'}. Install ripgrep or set search.engine to "auto".`,
    );
  }
  return { engine: engine === 'js' || !path ? 'js' : 'rg', path };
}
