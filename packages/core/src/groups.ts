// Hierarchical loading: tools fall into groups (files, search, shell, ...) so an agent can start
// with a few and load the rest when it needs them, paying for fewer definitions on every turn.
// Core knows no group by name: each family declares its groups, with their summaries, beside its tools.
import { applyFilter, type RegistryChange, type ToolFilter, type ToolSource } from './source.js';
import { similarNames } from './similar-names.js';
import type { Tool } from './tool.js';

export interface ToolGroup {
  name: string;
  /** One line for the model: what the group holds. */
  summary: string;
  tools: string[];
}

/** A tool group as its family declares it (defineGroup). */
export interface ToolGroupInfo {
  readonly name: string;
  /** One line for the model on what the group holds, or one made from the names of its tools. */
  readonly summary: string | ((tools: readonly string[]) => string);
}

/**
 * A group as its family declares it, beside its tools (`group: GIT` on each git tool): the name, and
 * one line for the model on what the group holds, or a function of the group's tool names.
 */
export function defineGroup(name: string, summary: ToolGroupInfo['summary']): ToolGroupInfo {
  return Object.freeze({ name, summary });
}

/** The group a tool belongs to: its own `group`, else one named after its category, else "other". */
export function groupOf(tool: Tool): string {
  if (tool.group) return typeof tool.group === 'string' ? tool.group : tool.group.name;
  return tool.category ?? 'other';
}

/** Every group that has at least one tool in `source`, by name. */
export function listGroups(source: ToolSource): ToolGroup[] {
  const byName = new Map<string, { tools: string[]; info?: ToolGroupInfo }>();
  for (const tool of source.list()) {
    const name = groupOf(tool);
    const group = byName.get(name) ?? { tools: [] };
    group.tools.push(tool.name);
    // The first tool that declares the group's summary gives it.
    if (!group.info && typeof tool.group === 'object') group.info = tool.group;
    byName.set(name, group);
  }
  return [...byName.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, { tools, info }]) => ({ name, summary: summaryOf(info, tools), tools }));
}

/** The declared summary, else the group's tool names. */
function summaryOf(info: ToolGroupInfo | undefined, tools: string[]): string {
  if (!info) return tools.join(', ');
  return typeof info.summary === 'string' ? info.summary : info.summary(tools);
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
