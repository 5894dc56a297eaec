// Tools: the catalog by group (an MCP server's tools are its group), each with its effect, and
// a "try it" form for the one picked.
import { useEffect, useMemo, useState } from 'preact/hooks';
import type { ToolGroup } from '@toolbelt/core';
import type { McpServerState, ToolInfo, ToolList, WhoAmI } from '@toolbelt/protocol';
import { api } from '../api.js';
import { TryIt } from './try-it.js';

function ToolDetail({ tool, me }: { tool: ToolInfo; me: WhoAmI }) {
  return (
    <article class="card tool-detail" aria-label={`Tool ${tool.name}`}>
      <h2>
        <code>{tool.name}</code> <span class={`badge effect-${tool.effect}`}>{tool.effect}</span>
        {tool.visible && <span class="badge">visible</span>}
        {tool.executionType && <span class="badge">{tool.executionType}</span>}
      </h2>
      <p class="description">{tool.description}</p>
      <TryIt tool={tool} me={me} />
    </article>
  );
}

/** The MCP servers and how each connection stands; a failed one says why. */
function Servers({ servers }: { servers: McpServerState[] }) {
  if (!servers.length) return <p class="muted">No MCP servers configured.</p>;
  return (
    <ul class="servers" aria-label="MCP servers">
      {servers.map((s) => (
        <li key={s.name}>
          <code>{s.name}</code> <span class={`badge server-${s.state}`}>{s.state}</span>
          {s.tools !== undefined && <span class="muted"> {s.tools} tools</span>}
          {s.reason && <span class="error"> {s.reason}</span>}
        </li>
      ))}
    </ul>
  );
}

interface GroupProps {
  group: ToolGroup;
  /** The group's tools the filter lets through. */
  names: string[];
  byName: Map<string, ToolInfo>;
  picked: string | undefined;
  onPick(name: string): void;
}

/** One group of the catalog: its tools, each with its effect, the picked one pressed. */
function Group({ group, names, byName, picked, onPick }: GroupProps) {
  return (
    <div class="group">
      <h2 title={group.summary}>{group.name}</h2>
      <ul>
        {names.map((n) => (
          <li key={n}>
            <button
              class={`tool-item${n === picked ? ' selected' : ''}`}
              aria-pressed={n === picked}
              onClick={() => onPick(n)}
            >
              <code>{n}</code> <span class={`badge effect-${byName.get(n)?.effect}`}>{byName.get(n)?.effect}</span>
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** The tools, their groups and the MCP servers, read once. */
function useCatalog(): { tools: ToolInfo[]; groups: ToolGroup[]; servers: McpServerState[]; error?: string } {
  const [tools, setTools] = useState<ToolInfo[]>([]);
  const [groups, setGroups] = useState<ToolGroup[]>([]);
  const [servers, setServers] = useState<McpServerState[]>([]);
  const [error, setError] = useState<string>();
  useEffect(() => {
    Promise.all([api('listTools') as Promise<ToolList>, api('groups')])
      .then(([t, g]) => {
        setTools(t.tools);
        setGroups(g.groups);
        setServers(g.servers);
      })
      .catch((e: Error) => setError(e.message));
  }, []);
  return { tools, groups, servers, ...(error ? { error } : {}) };
}

export function ToolsView({ me }: { me: WhoAmI }) {
  const { tools, groups, servers, error } = useCatalog();
  const [filter, setFilter] = useState('');
  const [picked, setPicked] = useState<string>();
  const byName = useMemo(() => new Map(tools.map((t) => [t.name, t])), [tools]);
  const needle = filter.toLowerCase();
  const shown = (g: ToolGroup) =>
    g.tools.filter(
      (n) => !needle || n.toLowerCase().includes(needle) || byName.get(n)?.description.toLowerCase().includes(needle),
    );
  const tool = picked ? byName.get(picked) : undefined;
  return (
    <section class="tools" aria-labelledby="tools-title">
      <div class="catalog">
        <h1 id="tools-title">Tools {tools.length > 0 && <span class="count">{tools.length}</span>}</h1>
        {error && <p class="error">{error}</p>}
        <label class="sr-only" for="tool-filter">
          Filter tools
        </label>
        <input
          id="tool-filter"
          type="search"
          placeholder="Filter by name or description"
          value={filter}
          onInput={(e) => setFilter(e.currentTarget.value)}
        />
        <Servers servers={servers} />
        {groups.map((g) => {
          const names = shown(g);
          if (!names.length) return null;
          return <Group key={g.name} group={g} names={names} byName={byName} picked={picked} onPick={setPicked} />;
        })}
      </div>
      {tool ? <ToolDetail tool={tool} me={me} /> : <p class="empty">Pick a tool to see it and try it.</p>}
    </section>
  );
}
