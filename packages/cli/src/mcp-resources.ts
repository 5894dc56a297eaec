// What `toolbelt mcp` serves besides tools: the workspace's files as resources, read through the
// guard and the policy (a read of a path is judged as read_file of that path would be), and the
// proxied servers' resources and prompts, a read of one judged as a call of that server's tools.
import { McpCatalog, type McpManager, type PromptSource, type ResourceSource, type UpstreamRead } from '@toolbelt/mcp';
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

/**
 * Why a client may not read a proxied server's resource now, or undefined: the policy decides as for
 * a read-only call of that server's tools (`execute` unless the config trusts the server with
 * `"trust": "read"`), by the name `server__resources.read`. A read cannot ask a person: "ask" refuses.
 */
async function upstreamRefusal(rt: Pick<Runtime, 'policy'>, read: UpstreamRead): Promise<string | undefined> {
  await rt.policy.ready();
  const decision = rt.policy.decide({
    tool: read.tool,
    effect: read.effect,
    input: { uri: read.uri },
    subject: { urls: [read.uri] },
    sessionId: 'mcp',
  });
  if (decision.action === 'allow') return undefined;
  const what = `reading ${read.uri} from MCP server "${read.server}"`;
  if (decision.action === 'deny') return `${what} is denied: ${decision.reason}`;
  return (
    `${what} needs approval (${decision.reason}), which a resource read cannot ask for; allow it with a rule naming it ` +
    `({"tool": "${read.tool}", "action": "allow"}, with "url" to allow some URIs only) or, if the server only reads, ` +
    `trust it with "trust": "read" in mcpServers.${read.server} of toolbelt.config.json`
  );
}

export function mcpContent(
  rt: Runtime,
  manager: McpManager | undefined,
): { resources: ResourceSource[]; prompts?: PromptSource } {
  const workspace = new WorkspaceResources({ guard: rt.workspace, check: (path) => policyRefusal(rt, path) });
  if (!manager) return { resources: [workspace] };
  const catalog = new McpCatalog(manager, { judge: (read) => upstreamRefusal(rt, read) });
  return { resources: [workspace, catalog.resources], prompts: catalog.prompts };
}
