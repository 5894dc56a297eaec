// Names models bring from other agents' tool sets (`bash`, `Read`, `str_replace_editor`), resolved to
// the registered tool that claims them, and their parameter spellings rewritten into the tool's own.
// Only calls see this: the definitions a model is shown stay as they are.
import type { ToolSource } from '../source.js';
import type { Tool, ToolAlias } from '../tool.js';
import { toolName } from './call-input.js';
import { unknownToolMessage } from './suggest.js';

export type AliasMatch = { tool: Tool; alias?: ToolAlias } | { refusal: string };

interface Claim {
  tool: Tool;
  alias?: ToolAlias;
}

type Input = Record<string, unknown>;

const isObject = (v: unknown): v is Input => typeof v === 'object' && v !== null && !Array.isArray(v);
/** `maxResults`, `max_results` and `max-results` are one name. */
const squash = (name: string) => name.toLowerCase().replace(/[^a-z0-9]/g, '');

export class AliasIndex {
  private claims?: Map<string, Claim[]>;

  constructor(private readonly registry: ToolSource) {
    registry.onChange(() => (this.claims = undefined));
  }

  /** The tool a name that is not registered stands for; undefined when none claims it. */
  resolve(name: string, input: unknown): AliasMatch | undefined {
    const claims = this.index().get(name.toLowerCase());
    if (!claims) return undefined;
    // A tool's own name in other letters (`Glob`) wins over other tools' aliases.
    const own = claims.filter((c) => !c.alias);
    if (own.length === 1) return own[0];
    const fitting = claims.filter((c) => !c.alias?.when || c.alias.when(isObject(input) ? input : {}));
    // `Read` and `read` are one key: two claims of the same tool are one.
    if (fitting.length > 0 && fitting.every((c) => c.tool === fitting[0].tool)) return fitting[0];
    const choices = [...new Set(claims.map((c) => c.tool.name))].join(', ');
    if (fitting.length === 0)
      return {
        refusal: `Unknown tool "${name}". Another tool set's name; here it is one of ${choices}, chosen by the input, and none takes this input. Call one of them by its own name.`,
      };
    return { refusal: `Ambiguous tool "${name}": it could be ${choices}. Call one of them by its own name.` };
  }

  private index(): Map<string, Claim[]> {
    if (this.claims) return this.claims;
    const claims = new Map<string, Claim[]>();
    const add = (name: string, claim: Claim) => {
      const key = name.toLowerCase();
      claims.set(key, [...(claims.get(key) ?? []), claim]);
    };
    for (const tool of this.registry.list()) {
      add(tool.name, { tool });
      for (const a of tool.aliases?.names ?? []) {
        const alias = typeof a === 'string' ? { name: a } : a;
        add(alias.name, { tool, alias });
      }
    }
    this.claims = claims;
    return claims;
  }
}

export type Found =
  { tool: Tool; alias?: { alias: ToolAlias | undefined } } | { refusal: string; recoverable: boolean };

/** The registered tool of a name, else the tool that claims it as an alias (`alias` set); a refusal when none or several do. */
export function findTool(registry: ToolSource, aliases: AliasIndex | undefined, name: unknown, input: unknown): Found {
  if (typeof name !== 'string') return { refusal: unknownToolMessage(toolName(name), registry), recoverable: false };
  const tool = registry.get(name);
  if (tool) return { tool };
  const match = aliases?.resolve(name, input);
  if (!match) return { refusal: unknownToolMessage(name, registry), recoverable: false };
  if ('refusal' in match) return { refusal: match.refusal, recoverable: true };
  return { tool: match.tool, alias: { alias: match.alias } };
}

/**
 * The input in the tool's own words: the alias's shape, then parameter renames (declared ones, and
 * camelCase or other spellings of a parameter the schema has), then the tool's own reshaping. A
 * name the schema has is never renamed, and a rename never overwrites a parameter that was given.
 */
export function inOwnWords(tool: Tool, input: unknown, alias?: ToolAlias): unknown {
  if (!isObject(input)) return input;
  let value = alias?.input ? alias.input(input) : input;
  const props = schemaProperties(tool);
  if (props) value = renamed(value, props, tool.aliases?.params ?? {});
  return tool.aliases?.input ? tool.aliases.input(value) : value;
}

function renamed(input: Input, props: readonly string[], declared: Readonly<Record<string, string>>): Input {
  const known = new Set(props);
  let out: Input | undefined;
  for (const key of Object.keys(input)) {
    if (known.has(key)) continue;
    const target = Object.hasOwn(declared, key) ? declared[key] : props.find((p) => squash(p) === squash(key));
    if (target === undefined || Object.hasOwn(input, target) || (out && Object.hasOwn(out, target))) continue;
    out ??= { ...input };
    out[target] = out[key];
    delete out[key];
  }
  return out ?? input;
}

function schemaProperties(tool: Tool): string[] | undefined {
  const props = (tool.jsonSchema as { properties?: unknown }).properties;
  return isObject(props) ? Object.keys(props) : undefined;
}
