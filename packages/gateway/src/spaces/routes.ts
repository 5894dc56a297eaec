// The routes of spaces, agents' notes, prompts and think cycles; each hands its input to one domain function.
import type { Context, Hono } from 'hono';
import type { z } from 'zod';
import type { NoteKind } from '@toolbelt/protocol';
import { agentPrompt } from '../domain/agent-prompt.js';
import { finishCycle, heartbeatCycle, takeCycle } from '../domain/cycles.js';
import type { Domain } from '../domain/context.js';
import { openSpaceStream } from '../domain/events.js';
import {
  addMember,
  createSpace,
  listMembers,
  listMessages,
  listSpaces,
  postMessage,
  readNotes,
  removeMember,
} from '../domain/spaces.js';
import type { AuthEnv } from '../http/auth.js';
import { intParam } from '../http/body.js';
import { ApiError } from '../http/errors.js';
import { header } from '../http/incoming.js';
import { memberBody, messageBody, spaceBody, validId } from '../http/schemas.js';
import { clientSignal } from '../http/signal.js';

type ReadBody = <S extends z.ZodType>(c: Context, schema: S) => Promise<z.output<S>>;

const NOTE_KINDS: readonly NoteKind[] = ['goals', 'memories', 'plans'];
/** The longest a think cycle request waits for a first message. */
const MAX_WAIT_MS = 60_000;

function id(c: Context, name: string): string {
  const value = c.req.param(name) ?? '';
  if (!validId(value))
    throw new ApiError(400, 'BAD_REQUEST', `${name} must be 1-200 characters without control characters`);
  return value;
}

export function spaceRoutes(app: Hono<AuthEnv>, d: Domain, readBody: ReadBody, heartbeatMs?: number): void {
  app.post('/api/spaces', async (c) =>
    c.json(await createSpace(d, c.var.principal, await readBody(c, spaceBody)), 201),
  );
  app.get('/api/spaces', async (c) => c.json(await listSpaces(d, c.var.principal)));
  app.get('/api/spaces/:spaceId/members', async (c) => c.json(await listMembers(d, c.var.principal, id(c, 'spaceId'))));
  app.post('/api/spaces/:spaceId/members', async (c) =>
    c.json(await addMember(d, c.var.principal, id(c, 'spaceId'), await readBody(c, memberBody))),
  );
  app.delete('/api/spaces/:spaceId/members/:memberId', async (c) =>
    c.json(await removeMember(d, c.var.principal, id(c, 'spaceId'), id(c, 'memberId'))),
  );
  app.post('/api/spaces/:spaceId/messages', async (c) =>
    c.json(await postMessage(d, c.var.principal, id(c, 'spaceId'), await readBody(c, messageBody)), 201),
  );
  app.get('/api/spaces/:spaceId/messages', async (c) => {
    const offset = intParam(c, 'offset', 0, Number.MAX_SAFE_INTEGER);
    return c.json(
      await listMessages(d, c.var.principal, id(c, 'spaceId'), offset, intParam(c, 'limit', 50, 500) || 50),
    );
  });
  app.get('/api/spaces/:spaceId/events', (c) => {
    const after = header(c, 'last-event-id') ?? c.req.query('lastEventId');
    return openSpaceStream(d, c.var.principal, id(c, 'spaceId'), after, heartbeatMs);
  });
  for (const kind of NOTE_KINDS)
    app.get(`/api/agents/:agentId/${kind}`, async (c) =>
      c.json(await readNotes(d, c.var.principal, id(c, 'agentId'), kind)),
    );
  app.get('/api/agents/:agentId/prompt', async (c) => c.json(await agentPrompt(d, c.var.principal, id(c, 'agentId'))));
  app.post('/api/agents/:agentId/cycles', async (c) => {
    const q = { waitMs: intParam(c, 'wait', 0, MAX_WAIT_MS), limit: intParam(c, 'limit', 100, 1000) || 100 };
    return c.json(await takeCycle(d, d.waiters, c.var.principal, id(c, 'agentId'), q, clientSignal(c)));
  });
  app.post('/api/agents/:agentId/cycles/:cycleId/done', async (c) =>
    c.json(await finishCycle(d, c.var.principal, id(c, 'agentId'), id(c, 'cycleId'))),
  );
  app.post('/api/agents/:agentId/cycles/:cycleId/heartbeat', async (c) =>
    c.json(await heartbeatCycle(d, c.var.principal, id(c, 'agentId'), id(c, 'cycleId'))),
  );
}
