// What reads tools: a source (the registry, a scoped or grouped view of it) and the filters that
// narrow one. The registry and the views build on this; it imports neither.
import type { Tool } from './tool.js';

export type ToolFilter =
  | 'all'
  | readonly string[]
  | { names?: readonly string[]; category?: string | readonly string[]; predicate?: (tool: Tool) => boolean };

export type RegistryChange = { type: 'added' | 'removed' | 'replaced'; name: string };

/** Read side of a registry; a scoped view is one too. */
export interface ToolSource {
  get(name: string): Tool | undefined;
  has(name: string): boolean;
  list(filter?: ToolFilter): Tool[];
  onChange(listener: (change: RegistryChange) => void): () => void;
}

/** The part of a filter that names tools, for changes, which carry only a name. */
export function namesOnly(filter: ToolFilter): ToolFilter {
  if (filter === 'all' || Array.isArray(filter)) return filter;
  const f = filter as Exclude<ToolFilter, 'all' | readonly string[]>;
  return f.names ? f.names : 'all';
}

export function applyFilter(tools: Tool[], filter: ToolFilter): Tool[] {
  if (filter === 'all') return tools;
  if (Array.isArray(filter)) {
    if (filter.includes('all')) return tools;
    const names = new Set(filter);
    return tools.filter((t) => names.has(t.name));
  }
  const f = filter as Exclude<ToolFilter, 'all' | readonly string[]>;
  const names = f.names && !f.names.includes('all') ? new Set(f.names) : undefined;
  const categories =
    f.category === undefined ? undefined : new Set(typeof f.category === 'string' ? [f.category] : f.category);
  return tools.filter(
    (t) =>
      (!names || names.has(t.name)) &&
      (!categories || (t.category !== undefined && categories.has(t.category))) &&
      (!f.predicate || f.predicate(t)),
  );
}
