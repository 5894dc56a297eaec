// The registry: tools by name, filtered views for an agent's allow-list, and change events.
import { applyFilter, namesOnly, type RegistryChange, type ToolFilter, type ToolSource } from './source.js';
import { GroupedView, listGroups, type ToolGroup } from './groups.js';
import { TOOL_NAME, type Tool } from './tool.js';

type Listener = (change: RegistryChange) => void;

export class ToolRegistry implements ToolSource {
  private readonly tools = new Map<string, Tool>();
  private readonly listeners = new Set<Listener>();

  register(tool: Tool, opts: { replace?: boolean } = {}): this {
    if (!TOOL_NAME.test(tool.name))
      throw new Error(`invalid tool name "${tool.name}": use 1-64 letters, digits, "_" or "-"`);
    const existing = this.tools.has(tool.name);
    if (existing && !opts.replace) {
      throw new Error(`a tool named "${tool.name}" is already registered; pass { replace: true } to replace it`);
    }
    this.tools.set(tool.name, tool);
    this.notify({ type: existing ? 'replaced' : 'added', name: tool.name });
    return this;
  }

  registerAll(tools: Iterable<Tool>, opts: { replace?: boolean } = {}): this {
    const list = [...tools];
    // All-or-nothing: check every name first so a duplicate leaves the registry unchanged.
    const seen = new Set<string>();
    for (const t of list) {
      if (seen.has(t.name) || (this.tools.has(t.name) && !opts.replace)) {
        throw new Error(`a tool named "${t.name}" is already registered; pass { replace: true } to replace it`);
      }
      seen.add(t.name);
    }
    for (const t of list) this.register(t, opts);
    return this;
  }

  /** Registers the tool only when `when` holds (e.g. its credential is configured). */
  registerIf(when: unknown, make: () => Tool): boolean {
    if (!when) return false;
    this.register(make());
    return true;
  }

  unregister(name: string): boolean {
    const had = this.tools.delete(name);
    if (had) this.notify({ type: 'removed', name });
    return had;
  }

  get(name: string): Tool | undefined {
    return this.tools.get(name);
  }

  has(name: string): boolean {
    return this.tools.has(name);
  }

  list(filter: ToolFilter = 'all'): Tool[] {
    return applyFilter([...this.tools.values()], filter);
  }

  /** A live view limited to an agent's allow-list; changes to the registry show through. */
  scoped(filter: ToolFilter): ToolSource {
    const base = this;
    const allowed = (tool: Tool | undefined): tool is Tool =>
      tool !== undefined && applyFilter([tool], filter).length === 1;
    return {
      get: (name) => {
        const t = base.get(name);
        return allowed(t) ? t : undefined;
      },
      has: (name) => allowed(base.get(name)),
      list: (inner) => applyFilter(base.list(filter), inner ?? 'all'),
      onChange: (listener) =>
        base.onChange((change) => {
          if (applyFilter([{ name: change.name } as Tool], namesOnly(filter)).length === 1) listener(change);
        }),
    };
  }

  /** The groups its tools fall into (see groups.ts), for hierarchical loading. */
  groups(): ToolGroup[] {
    return listGroups(this);
  }

  /** A live view with only these groups' tools; `load` adds more. Throws on an unknown group. */
  grouped(groups: readonly string[]): GroupedView {
    const view = new GroupedView(this);
    view.load(groups);
    return view;
  }

  onChange(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private notify(change: RegistryChange): void {
    for (const l of this.listeners) {
      try {
        l(change);
      } catch {
        // A listener's failure must not undo or block a registration.
      }
    }
  }
}
