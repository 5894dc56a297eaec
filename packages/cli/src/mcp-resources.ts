// What `toolbelt mcp` serves besides tools: the workspace's files as resources, read through the
// guard and the policy (a read of a path is judged as read_file of that path would be), and the
// proxied servers' resources and prompts.
import { McpCatalog, type McpManager, type PromptSource, type ResourceSource } from '@toolbelt/mcp';
import { WorkspaceResources } from '@toolbelt/tools';
import type { Runtime } from './runtime.js';

/** Why a client may not read `path` as a resource now, or undefined. */
async function policyRefusal(rt: Runtime, path: string): Promise<string | undefined> {
  const ex = await rt.executor.explain({ tool: 'read_file', input: { path }, origin: 'mcp' });
  if (ex.error) return `${path} cannot be read as a resource: ${ex.error.message}`;
  if (ex.decision?.action === 'deny') return ex.decision.reason;
  if (ex.decision?.action === 'ask')
    return `reading ${path} needs approval (${ex.decision.reason}), which a resource read cannot ask for; read it with read_file, or allow it with a rule in toolbelt.config.json`;
  return undefined;
}

export function mcpContent(rt: Runtime, manager: McpManager | undefined): { resources: ResourceSource[]; prompts?: PromptSource } {
  const workspace = new WorkspaceResources({ guard: rt.workspace, check: (path) => policyRefusal(rt, path) });
  if (!manager) return { resources: [workspace] };
  const catalog = new McpCatalog(manager);
  return { resources: [workspace, catalog.resources], prompts: catalog.prompts };
}
