// Hierarchical loading: tools fall into groups (files, search, shell, ...) so an agent can start
// with a few and load the rest when it needs them, paying for fewer definitions on every turn.
import type { RegistryChange, ToolFilter, ToolSource } from './registry.js';
import { applyFilter } from './registry.js';
import { similarNames } from './similar-names.js';
import type { Tool } from './tool.js';

export interface ToolGroup {
  name: string;
  /** One line for the model: what the group holds. */
  summary: string;
  tools: string[];
}

const GROUP_OF_CATEGORY: Record<string, string> = { fs: 'files', lsp: 'code' };

const SUMMARIES: Record<string, string> = {
  files: 'read, write, edit and list files',
  file_ops: 'mkdir, move, copy, append, delete',
  search: 'find files by name and text by regex',
  shell: 'run commands (background too)',
  git: 'status, diff, log, branch, commit, push',
  code: 'diagnostics, symbols, definitions, references, hover',
  web: 'fetch pages, web search',
  gmail: 'search, read and send mail',
  calendar: 'list, read and create calendar events',
  linkedin: 'LinkedIn job postings',
  anthropic: 'Anthropic organization usage and cost',
};

/** The group a tool belongs to: its own `group`, else one named after its category, else "other". */
export function groupOf(tool: Tool): string {
  if (tool.group) return tool.group;
  if (!tool.category) return 'other';
  return GROUP_OF_CATEGORY[tool.category] ?? tool.category;
}

/** Every group that has at least one tool in `source`, by name. */
export function listGroups(source: ToolSource): ToolGroup[] {
  const byName = new Map<string, string[]>();
  for (const tool of source.list()) {
    const name = groupOf(tool);
    byName.set(name, [...(byName.get(name) ?? []), tool.name]);
  }
  return [...byName.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, tools]) => ({ name, summary: summaryOf(name, tools), tools }));
}

function summaryOf(name: string, tools: string[]): string {
  if (SUMMARIES[name]) return SUMMARIES[name];
  if (name.startsWith('mcp:')) return `tools of MCP server "${name.slice(4)}": ${tools.join(', ')}`;
  return tools.join(', ');
}

/** Thrown by `load` for a name that is no group; the message lists the valid ones. */
export class UnknownGroupError extends Error {
  constructor(
    readonly unknown: string[],
    readonly valid: string[],
  ) {
    const close = unknown.length === 1 ? similarNames(unknown[0], valid) : [];
    const hint = close.length ? ` (did you mean ${close.map((g) => `"${g}"`).join(' or ')}?)` : '';
    super(
      `unknown tool group${unknown.length > 1 ? 's' : ''} ${unknown.map((g) => `"${g}"`).join(', ')}${hint}; valid groups: ${valid.join(', ')}`,
    );
  }
}

/**
 * A live view of a source that shows only the tools of loaded groups. `load` adds groups and
 * tells listeners, as a registration would; tools registered later show when their group is loaded.
 */
export class GroupedView implements ToolSource {
  private readonly loaded: Set<string>;
  private readonly listeners = new Set<(change: RegistryChange) => void>();

  /** Takes `groups` as they are, so a server that is down does not fail a view; `load` checks. */
  constructor(
    private readonly source: ToolSource,
    groups: readonly string[] = [],
  ) {
    this.loaded = new Set(groups);
  }

  /** Loads groups; throws UnknownGroupError (loading none) when a name is no group. Returns the newly loaded tools. */
  load(groups: readonly string[]): string[] {
    const valid = listGroups(this.source);
    const unknown = groups.filter((g) => !valid.some((v) => v.name === g));
    if (unknown.length)
      throw new UnknownGroupError(
        unknown,
        valid.map((v) => v.name),
      );
    const added = valid.filter((g) => groups.includes(g.name) && !this.loaded.has(g.name)).flatMap((g) => g.tools);
    for (const g of groups) this.loaded.add(g);
    for (const name of added) this.notify({ type: 'added', name });
    return added;
  }

  isLoaded(group: string): boolean {
    return this.loaded.has(group);
  }

  /** Groups with tools that are not loaded yet. */
  unloaded(): ToolGroup[] {
    return listGroups(this.source).filter((g) => !this.loaded.has(g.name));
  }

  get(name: string): Tool | undefined {
    const tool = this.source.get(name);
    return tool && this.loaded.has(groupOf(tool)) ? tool : undefined;
  }

  has(name: string): boolean {
    return this.get(name) !== undefined;
  }

  list(filter: ToolFilter = 'all'): Tool[] {
    return applyFilter(
      this.source.list().filter((t) => this.loaded.has(groupOf(t))),
      filter,
    );
  }

  onChange(listener: (change: RegistryChange) => void): () => void {
    this.listeners.add(listener);
    const stop = this.source.onChange((change) => {
      const tool = this.source.get(change.name);
      // A removed tool is gone from the source: pass it on, a listener cannot tell its group.
      if (!tool || this.loaded.has(groupOf(tool))) listener(change);
    });
    return () => {
      this.listeners.delete(listener);
      stop();
    };
  }

  private notify(change: RegistryChange): void {
    for (const l of this.listeners) {
      try {
        l(change);
      } catch {
        // A listener's failure must not block a load.
      }
    }
  }
}
