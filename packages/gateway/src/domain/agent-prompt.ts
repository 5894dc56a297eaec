// GET /api/agents/:agentId/prompt: the system-prompt fragment for a model driving the agent, made
// fresh from the store, so each think cycle starts from the agent's notes as they are now.
import type { AgentPrompt } from '@toolbelt/protocol';
import { isVisibleTool } from '../declared/visible.js';
import { ApiError } from '../http/errors.js';
import type { Principal } from '../http/auth.js';
import { mayReadAgent } from '../spaces/access.js';
import { promptText } from '../spaces/prompt-text.js';
import type { Domain } from './context.js';

export async function agentPrompt(d: Domain, p: Principal, agentId: string): Promise<AgentPrompt> {
  if (!(await mayReadAgent(d.store, p, agentId)))
    throw new ApiError(
      403,
      'FORBIDDEN',
      `this token may not read agent "${agentId}"; use a token for the agent (role call)`,
    );
  const spaces = d.store.spaces;
  const [active, mine, goals, memories, plans] = await Promise.all([
    spaces.activeSpace(agentId),
    spaces.listSpaces([agentId]),
    spaces.listNotes(agentId, 'goals'),
    spaces.listNotes(agentId, 'memories'),
    spaces.listNotes(agentId, 'plans'),
  ]);
  const visibleTools = d.registry
    .list()
    .filter(isVisibleTool)
    .map((t) => t.name);
  const parts = { agentId, activeSpace: active ?? null, spaces: mine, visibleTools, goals, memories, plans };
  return { ...parts, prompt: promptText(parts) };
}
