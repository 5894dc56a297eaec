// The built-in tools an agent uses to be in spaces: enter_space, leave_space, send_message,
// read_messages and skip. Only enter_space and read_messages take a spaceId; the rest act in the
// agent's active space.
import { defineTool, ToolError, type Tool } from '@toolbelt/core';
import { publishMessage } from './publish.js';
import { agentOf, json, type BuiltinDeps } from './tool-deps.js';

const HISTORY = 20;
const obj = (properties: Record<string, unknown>, required: string[] = []) => ({
  type: 'object',
  properties,
  required,
  additionalProperties: false,
});
const spaceId = { type: 'string', minLength: 1, maxLength: 200, description: 'The space id' };
const limit = { type: 'integer', minimum: 1, maximum: 200, description: `How many messages (default ${HISTORY})` };

/** Its agent's membership, or a message saying how to get in. */
async function member(deps: BuiltinDeps, tool: string, space: string, agentId: string): Promise<void> {
  if (!(await deps.store.spaces.getSpace(space)))
    throw new ToolError('NOT_FOUND', `${tool}: no space "${space}"; ask a person for the right id`);
  const m = await deps.store.spaces.getMember(space, agentId);
  if (!m)
    throw new ToolError(
      'PERMISSION_DENIED',
      `${tool}: you are not a member of space "${space}"; a person must add you first`,
    );
}

/** The latest `n` messages of a space, or the page at `offset`. */
async function page(deps: BuiltinDeps, space: string, offset: number | undefined, n: number) {
  const total = (await deps.store.spaces.listMessages(space, 0, 0)).total;
  const from = offset ?? Math.max(0, total - n);
  const { messages } = await deps.store.spaces.listMessages(space, from, n);
  return { spaceId: space, offset: from, total, messages };
}

export function spaceTools(deps: BuiltinDeps): Tool[] {
  return [...presence(deps), ...talk(deps)];
}

/** Entering and leaving a space. */
function presence(deps: BuiltinDeps): Tool[] {
  return [
    defineTool({
      name: 'enter_space',
      description:
        'Enter a space (a room of people and agents) you are a member of. Your messages and visible tool calls go there. Returns its latest messages.',
      input: obj({ spaceId, limit }, ['spaceId']),
      effect: 'read',
      category: 'spaces',
      async execute(input: { spaceId: string; limit?: number }, ctx) {
        const { agentId } = agentOf(deps, 'enter_space', ctx.callId);
        await member(deps, 'enter_space', input.spaceId, agentId);
        await deps.store.spaces.setActiveSpace(agentId, input.spaceId, Date.now());
        return json(await page(deps, input.spaceId, undefined, input.limit ?? HISTORY));
      },
    }),
    defineTool({
      name: 'leave_space',
      description: 'Leave the active space. Visible tools and send_message need a space again afterwards.',
      input: obj({}),
      effect: 'read',
      category: 'spaces',
      async execute(_input, ctx) {
        const { agentId } = agentOf(deps, 'leave_space', ctx.callId);
        const was = await deps.store.spaces.activeSpace(agentId);
        await deps.store.spaces.setActiveSpace(agentId, undefined, Date.now());
        return was ? `Left space "${was}".` : 'You were not in a space.';
      },
    }),
  ];
}

/** Speaking, reading and passing. */
function talk(deps: BuiltinDeps): Tool[] {
  return [
    defineTool({
      name: 'send_message',
      description: 'Send a text message to the active space. Every other agent in it gets it in its inbox.',
      input: obj({ text: { type: 'string', minLength: 1, maxLength: 100_000 } }, ['text']),
      effect: 'read',
      category: 'spaces',
      async execute(input: { text: string }, ctx) {
        const { agentId } = agentOf(deps, 'send_message', ctx.callId);
        const space = await deps.store.spaces.activeSpace(agentId);
        if (!space)
          throw new ToolError('PERMISSION_DENIED', 'send_message: you are not in a space. Call enter_space first.', {
            recoverable: true,
          });
        const out = await deps.store.spaces.postText(space, agentId, input.text, Date.now());
        if (!out.ok)
          throw new ToolError(
            'PERMISSION_DENIED',
            `send_message: you are no longer a member of space "${space}"; call enter_space with another space`,
          );
        publishMessage(deps.recorder, out.message);
        return json({ messageId: out.message.id, spaceId: space, delivered: out.inbox.map((m) => m.agentId) });
      },
    }),
    defineTool({
      name: 'read_messages',
      description:
        'Read messages of a space you are a member of, oldest first. Default: the active space, its latest messages.',
      input: obj({
        spaceId,
        offset: { type: 'integer', minimum: 0, description: 'First message to read (0 = oldest)' },
        limit,
      }),
      effect: 'read',
      category: 'spaces',
      async execute(input: { spaceId?: string; offset?: number; limit?: number }, ctx) {
        const { agentId } = agentOf(deps, 'read_messages', ctx.callId);
        const space = input.spaceId ?? (await deps.store.spaces.activeSpace(agentId));
        if (!space)
          throw new ToolError(
            'INVALID_PARAMS',
            'read_messages: you are not in a space; give spaceId or call enter_space first',
            { recoverable: true },
          );
        await member(deps, 'read_messages', space, agentId);
        return json(await page(deps, space, input.offset, input.limit ?? HISTORY));
      },
    }),
    defineTool({
      name: 'skip',
      description: 'Nothing to do: end this think cycle without acting.',
      input: obj({ reason: { type: 'string', maxLength: 2000 } }),
      effect: 'read',
      category: 'spaces',
      execute: () => 'Skipped. This cycle ends without action.',
    }),
  ];
}
