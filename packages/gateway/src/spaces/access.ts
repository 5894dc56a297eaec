// Who may see and speak in a space. An admin token may do anything; a person token is a member under
// its token's name; an agent token (call or events) acts for the agents it is scoped to.
import { canActFor, hasRole, type Principal } from '../http/auth.js';
import { ApiError } from '../http/errors.js';
import type { GatewayStore, Space, SpaceMember } from '../store/index.js';

const isAdmin = (p: Principal): boolean => p.roles.has('admin');
/**
 * Sees spaces as the agents it acts for: a call token (its agents, or every agent when unscoped), or
 * an events token scoped to agents. An unscoped events token without call (an approver's console, a
 * dashboard) acts for no agent: it sees a space only as a person member.
 */
export const seesSpacesAsAgent = (p: Principal): boolean =>
  hasRole(p, 'call') || (p.roles.has('events') && p.agents !== undefined);
const agentRoles = seesSpacesAsAgent;

/** Whether this principal may be `memberId` speaking in a space. */
export function mayBe(p: Principal, memberId: string, kind: SpaceMember['kind']): boolean {
  if (isAdmin(p)) return true;
  if (kind === 'person') return p.roles.has('person') && p.name === memberId;
  return hasRole(p, 'call') && canActFor(p, memberId);
}

/** Whether this principal sees the space: an admin, or one of its members as themselves. */
function seesSpace(p: Principal, members: readonly SpaceMember[]): boolean {
  if (isAdmin(p)) return true;
  return members.some((m) =>
    m.kind === 'person' ? p.roles.has('person') && p.name === m.memberId : agentRoles(p) && canActFor(p, m.memberId),
  );
}

/** The space, if this principal may see it; 404 otherwise (a space it may not see is not admitted to exist). */
export async function visibleSpace(
  store: GatewayStore,
  p: Principal,
  spaceId: string,
): Promise<{ space: Space; members: SpaceMember[] }> {
  const space = await store.spaces.getSpace(spaceId);
  const members = space ? await store.spaces.listMembers(spaceId) : [];
  if (!space || !seesSpace(p, members))
    throw new ApiError(404, 'NOT_FOUND', `no space "${spaceId}"; list spaces with GET /api/spaces`);
  return { space, members };
}

/** The member ids whose spaces a listing shows: undefined for all spaces. */
export function memberScope(p: Principal): string[] | undefined {
  if (isAdmin(p)) return undefined;
  const ids: string[] = [];
  if (p.roles.has('person')) ids.push(p.name);
  if (agentRoles(p)) {
    if (!p.agents) return undefined;
    ids.push(...p.agents);
  }
  return ids;
}

/** People read an agent's notes when they share a space with it; tokens for the agent read them too. */
export async function mayReadAgent(store: GatewayStore, p: Principal, agentId: string): Promise<boolean> {
  if (isAdmin(p) || (agentRoles(p) && canActFor(p, agentId))) return true;
  return p.roles.has('person') && (await store.spaces.shareSpace(p.name, agentId));
}
