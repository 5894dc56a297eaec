// Spaces over HTTP: create them, manage members, post and read messages, read agents' notes.
import { randomBytes } from 'node:crypto';
import type {
  MemberKind,
  MemberList,
  MessageList,
  NoteKind,
  NoteList,
  PostAnswer,
  Space,
  SpaceList,
} from '@toolbelt/protocol';
import { requireRole, type Principal } from '../http/auth.js';
import { ApiError } from '../http/errors.js';
import { mayBe, mayReadAgent, memberScope, visibleSpace } from '../spaces/access.js';
import { publishMessage } from '../spaces/publish.js';
import type { Domain } from './context.js';

export async function createSpace(d: Domain, p: Principal, body: { name: string; id?: string }): Promise<Space> {
  requireRole(p, 'admin');
  const space = { id: body.id ?? `sp_${randomBytes(6).toString('base64url')}`, name: body.name, createdAt: Date.now() };
  if (!(await d.store.spaces.createSpace(space)))
    throw new ApiError(409, 'CONFLICT', `space "${space.id}" exists already; pick another id or leave it out`);
  return space;
}

export async function listSpaces(d: Domain, p: Principal): Promise<SpaceList> {
  return { spaces: await d.store.spaces.listSpaces(memberScope(p)) };
}

export async function listMembers(d: Domain, p: Principal, spaceId: string): Promise<MemberList> {
  return { members: (await visibleSpace(d.store, p, spaceId)).members };
}

export async function addMember(
  d: Domain,
  p: Principal,
  spaceId: string,
  body: { memberId: string; kind: MemberKind },
): Promise<MemberList> {
  requireRole(p, 'admin');
  const added = await d.store.spaces.addMember({
    spaceId,
    memberId: body.memberId,
    kind: body.kind,
    joinedAt: Date.now(),
  });
  if (!added) throw new ApiError(404, 'NOT_FOUND', `no space "${spaceId}"; create it with POST /api/spaces`);
  return { members: await d.store.spaces.listMembers(spaceId) };
}

export async function removeMember(d: Domain, p: Principal, spaceId: string, memberId: string): Promise<MemberList> {
  requireRole(p, 'admin');
  if (!(await d.store.spaces.getSpace(spaceId)))
    throw new ApiError(404, 'NOT_FOUND', `no space "${spaceId}"; list spaces with GET /api/spaces`);
  if (!(await d.store.spaces.removeMember(spaceId, memberId)))
    throw new ApiError(404, 'NOT_FOUND', `"${memberId}" is not a member of space "${spaceId}"`);
  return { members: await d.store.spaces.listMembers(spaceId) };
}

/** A text message from a member; every other agent member gets it in its inbox. */
export async function postMessage(
  d: Domain,
  p: Principal,
  spaceId: string,
  body: { senderId: string; text: string },
): Promise<PostAnswer> {
  const { members } = await visibleSpace(d.store, p, spaceId);
  const sender = members.find((m) => m.memberId === body.senderId);
  if (!sender)
    throw new ApiError(
      403,
      'FORBIDDEN',
      `"${body.senderId}" is not a member of space "${spaceId}"; add it with POST /api/spaces/${spaceId}/members`,
    );
  if (!mayBe(p, sender.memberId, sender.kind))
    throw new ApiError(403, 'FORBIDDEN', `this token may not post as "${body.senderId}"`);
  const out = await d.store.spaces.postText(spaceId, body.senderId, body.text, Date.now());
  if (!out.ok)
    throw new ApiError(409, 'CONFLICT', `space "${spaceId}" changed while posting (${out.reason}); try again`);
  publishMessage(d.recorder, out.message);
  return { message: out.message, delivered: out.inbox.map((m) => m.agentId) };
}

export async function listMessages(
  d: Domain,
  p: Principal,
  spaceId: string,
  offset: number,
  limit: number,
): Promise<MessageList> {
  await visibleSpace(d.store, p, spaceId);
  return d.store.spaces.listMessages(spaceId, offset, limit);
}

export async function readNotes(d: Domain, p: Principal, agentId: string, kind: NoteKind): Promise<NoteList> {
  if (!(await mayReadAgent(d.store, p, agentId)))
    throw new ApiError(
      403,
      'FORBIDDEN',
      `this token may not read agent "${agentId}"; a person reads agents it shares a space with`,
    );
  return { agentId, kind, notes: await d.store.spaces.listNotes(agentId, kind) };
}
