// GET /api/agents/:agentId/prompt over real HTTP with tokens: the rules a model driving an agent is
// told, with the agent's spaces, visible tools and notes as the store has them at that moment.
import { GatewayClient, GatewayError } from '@toolbelt/client';
import type { DeclaredTool } from '../config.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type Harness } from '../__fixtures__/harness.js';

const T = {
  admin: 'admin-token-0123456789',
  planner: 'planner-token-0123456789',
  other: 'other-token-01234567890',
  eve: 'eve-token-01234567890',
};
const confirm: DeclaredTool = {
  name: 'confirmAction',
  description: 'Ask to confirm.',
  inputSchema: { type: 'object' },
  executionType: 'space',
  isAsync: true,
};
const chart: DeclaredTool = {
  name: 'displayChart',
  description: 'Show a chart.',
  inputSchema: { type: 'object' },
  executionType: 'internal',
};

let h: Harness;
const as = (token: string, agentId = 'planner') => new GatewayClient({ url: h.url, token, agentId });
beforeAll(async () => {
  h = await startGateway({
    config: {
      tools: [confirm, chart],
      gateway: {
        tokens: [
          { token: T.admin, roles: ['admin'], name: 'ops' },
          { token: T.planner, roles: ['call'], agents: ['planner'] },
          { token: T.other, roles: ['call'], agents: ['other'] },
          { token: T.eve, roles: ['person'], name: 'eve' },
        ],
      },
    },
  });
  const admin = as(T.admin);
  await admin.createSpace('Travel', 'travel');
  await admin.addMember('travel', 'planner', 'agent');
});
afterAll(() => h.cleanup());

describe('the agent prompt', () => {
  it('states the rules, the spaces, the visible tools and the notes, fresh on each request', async () => {
    const planner = as(T.planner);
    const before = await planner.agentPrompt('planner');
    expect(before).toMatchObject({
      agentId: 'planner',
      activeSpace: null,
      spaces: [{ id: 'travel', name: 'Travel' }],
      visibleTools: ['confirmAction'],
    });
    expect(before.prompt).toContain('call enter_space before a visible tool');
    expect(before.prompt).toContain('Call skip with a short reason');
    expect(before.prompt).toContain('read_messages');
    expect(before.prompt).toContain('You are in no space');
    expect(before.prompt).toContain('Visible tools: confirmAction.');
    expect(before.prompt).toContain('Your memories: none.');

    await planner.call('run-p', 'enter_space', { spaceId: 'travel' });
    await planner.call('run-p', 'set_memories', { memories: [{ id: 'm1', text: 'Husam wants a quiet hotel' }] });
    const after = await planner.agentPrompt('planner');
    expect(after.activeSpace).toBe('travel');
    expect(after.prompt).toContain('Your active space: travel ("Travel").');
    expect(after.prompt).toContain('- [m1] Husam wants a quiet hotel');
    expect(after.memories).toMatchObject([{ id: 'm1', text: 'Husam wants a quiet hotel' }]);
  });

  it("is refused to a token for another agent and to a person who shares no space with it (control: the agent's own token reads it)", async () => {
    await expect(as(T.planner).agentPrompt('planner')).resolves.toMatchObject({ agentId: 'planner' });
    for (const token of [T.other, T.eve]) {
      const err = await as(token)
        .agentPrompt('planner')
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(GatewayError);
      expect((err as GatewayError).status).toBe(403);
    }
  });
});
