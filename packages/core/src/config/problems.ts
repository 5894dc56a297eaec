// Turning a config that does not fit its schema into one line per problem, each with its path.
import { z } from 'zod';
import { closestParameter } from '../similar-names.js';

export class ConfigError extends Error {
  constructor(
    readonly source: string,
    readonly problems: string[],
  ) {
    super(`${source} is invalid:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

type Path = readonly PropertyKey[];

/** `shell.limits.cpuSeconds`, `gateway.tokens[0].roles`; "(top level)" for the file itself. */
export function pathOf(path: Path): string {
  return path.length
    ? path
        .map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`))
        .join('')
        .replace(/^\./, '')
    : '(top level)';
}

interface JsonSchemaNode {
  properties?: Record<string, JsonSchemaNode>;
  items?: JsonSchemaNode;
  additionalProperties?: JsonSchemaNode | boolean;
  anyOf?: JsonSchemaNode[];
}

/** The keys an object at `path` may have, read from the schema; empty when it cannot tell. */
function knownKeys(schema: z.ZodType, path: Path): string[] {
  let node: JsonSchemaNode | undefined = z.toJSONSchema(schema, {
    io: 'input',
    unrepresentable: 'any',
  }) as JsonSchemaNode;
  const pick = (n: JsonSchemaNode | undefined, want: 'properties' | 'items' | 'additionalProperties') =>
    n?.[want] !== undefined ? n : n?.anyOf?.find((b) => b[want] !== undefined);
  for (const key of path) {
    if (typeof key === 'number') node = pick(node, 'items')?.items;
    else {
      const obj = pick(node, 'properties') ?? pick(node, 'additionalProperties');
      const extra = obj?.additionalProperties;
      node = obj?.properties?.[String(key)] ?? (typeof extra === 'object' ? extra : undefined);
    }
  }
  return Object.keys(pick(node, 'properties')?.properties ?? {});
}

const ARTICLE: Record<string, string> = {
  object: 'an object',
  array: 'a list',
  string: 'a string',
  number: 'a number',
  boolean: 'true or false',
  int: 'an integer',
};

/** The value as the config gave it, short. */
function shown(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 40 ? `${text.slice(0, 39)}…` : text;
}

/**
 * Our own schemas' messages say what is expected; Zod's generic ones ("Invalid input: expected
 * object, received string") are put the same way: what the key must be, and what it got.
 */
function wordsFor(issue: z.core.$ZodIssue): string {
  if (!issue.message.startsWith('Invalid input')) return issue.message;
  if (issue.code === 'invalid_type')
    return `must be ${ARTICLE[issue.expected] ?? issue.expected}, not ${shown(issue.input)}`;
  if (issue.code === 'invalid_union') return `is not any of the forms this key takes, got ${shown(issue.input)}`;
  return `${issue.message}, got ${shown(issue.input)}`;
}

/** One line per problem: unknown keys by their full path with the key likely meant, others with the schema's words. */
export function configProblems(schema: z.ZodType, issues: readonly z.core.$ZodIssue[]): string[] {
  return issues.flatMap((issue) => {
    if (issue.code !== 'unrecognized_keys') return [`${pathOf(issue.path)}: ${wordsFor(issue)}`];
    const known = knownKeys(schema, issue.path);
    return issue.keys.map((key) => {
      const near = closestParameter(key, known);
      const hint = near ? `; did you mean "${near}"?` : known.length ? `; known here: ${known.join(', ')}` : '';
      return `${pathOf([...issue.path, key])}: unknown key${hint}`;
    });
  });
}

/** Parses config JSON (text or value) with `schema`; throws ConfigError listing every problem with its path. */
export function parseConfigWith<S extends z.ZodType>(schema: S, source: string, raw: unknown): z.output<S> {
  let value: unknown = raw;
  if (typeof raw === 'string') {
    try {
      value = JSON.parse(raw);
    } catch (err) {
      throw new ConfigError(source, [`not valid JSON: ${(err as Error).message}`]);
    }
  }
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  // Parsed again with the input in each issue, so a message can show what the config gave.
  const detailed = schema.safeParse(value, { reportInput: true });
  throw new ConfigError(source, configProblems(schema, (detailed.error ?? parsed.error).issues));
}

/** One section of a whole config (a library user's `{ shell: {...}, ... }`), checked by its owner's schema. */
export function configSection<S extends z.ZodType>(
  config: unknown,
  key: string,
  schema: S,
  source = 'the config',
): z.output<S> | undefined {
  if (config === undefined || config === null) return undefined;
  return parseConfigWith(z.object({ [key]: schema.optional() }), source, config)[key] as z.output<S> | undefined;
}
