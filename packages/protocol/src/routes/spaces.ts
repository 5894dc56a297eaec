// Spaces: shared rooms of people and agents, their members, messages and events.
import type {
  MemberBody,
  MemberList,
  MessageBody,
  MessageList,
  PostAnswer,
  Space,
  SpaceBody,
  SpaceList,
} from '../wire/index.js';
import { io, type RouteSpec } from './spec.js';

const spaceId = { spaceId: 'the space' };
const noSpace = { '404': 'no such space (or not one this token sees)' };

export const SPACE_ROUTES = {
  createSpace: {
    method: 'POST',
    path: '/api/spaces',
    role: 'admin',
    summary: 'Create a space',
    status: 201,
    errors: { '409': 'the id is taken' },
    io: io<SpaceBody, Space>(),
  },
  listSpaces: {
    method: 'GET',
    path: '/api/spaces',
    role: 'token',
    summary: 'The spaces this token sees, oldest first: all for admin, its own for a person or agent token',
    io: io<never, SpaceList>(),
  },
  listMembers: {
    method: 'GET',
    path: '/api/spaces/:spaceId/members',
    role: 'token',
    summary: 'Members of a space',
    params: spaceId,
    errors: noSpace,
    io: io<never, MemberList>(),
  },
  addMember: {
    method: 'POST',
    path: '/api/spaces/:spaceId/members',
    role: 'admin',
    summary: 'Add a person or an agent; answers the members now',
    params: spaceId,
    errors: noSpace,
    io: io<MemberBody, MemberList>(),
  },
  removeMember: {
    method: 'DELETE',
    path: '/api/spaces/:spaceId/members/:memberId',
    role: 'admin',
    summary: 'Remove a member; an agent whose active space this was leaves it',
    params: { ...spaceId, memberId: 'the member' },
    errors: { '404': 'no such space or member' },
    io: io<never, MemberList>(),
  },
  postMessage: {
    method: 'POST',
    path: '/api/spaces/:spaceId/messages',
    role: 'token',
    summary: 'Post a text message as a member: every other agent member gets it in its inbox',
    description:
      'A person token posts as its name; an agent token as an agent it acts for; admin as any member. 403 when the sender is not a member, or this token may not post as it.',
    params: spaceId,
    status: 201,
    errors: noSpace,
    io: io<MessageBody, PostAnswer>(),
  },
  listMessages: {
    method: 'GET',
    path: '/api/spaces/:spaceId/messages',
    role: 'token',
    summary: 'Messages oldest first, text and visible tool calls',
    params: spaceId,
    query: {
      offset: { type: 'integer', description: 'first message (0 = oldest)' },
      limit: { type: 'integer', description: '1-500, default 50' },
    },
    errors: noSpace,
    io: io<never, MessageList>(),
  },
  spaceEvents: {
    method: 'GET',
    path: '/api/spaces/:spaceId/events',
    role: 'token',
    summary: "One space's Server-Sent Events: message, tool.started, tool.streaming, tool.done, tool.error",
    params: spaceId,
    query: {
      lastEventId: { type: 'string', description: 'replay after this id' },
      access_token: { type: 'string', description: 'the token, for clients that cannot send headers' },
    },
    headers: { 'Last-Event-ID': 'replay after this id' },
    answer: 'event-stream',
    errors: noSpace,
    io: io<never, string>(),
  },
} as const satisfies Record<string, RouteSpec>;
