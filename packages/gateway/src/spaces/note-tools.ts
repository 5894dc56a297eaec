// The built-in tools for an agent's own goals, memories and plans: set_* creates or updates entries
// by id, delete_* removes them, get_plans reads the plans back.
import { randomBytes } from 'node:crypto';
import { defineTool, type Tool } from '@toolbelt/core';
import type { NoteKind } from '../store/index.js';
import { agentOf, json, type BuiltinDeps } from './tool-deps.js';

const SINGULAR: Record<NoteKind, string> = { goals: 'goal', memories: 'memory', plans: 'plan' };
const id = { type: 'string', minLength: 1, maxLength: 200 };

function setTool(deps: BuiltinDeps, kind: NoteKind): Tool {
  const name = `set_${kind}`;
  return defineTool({
    name,
    description: `Create or update your ${kind}. An entry with the id of an existing ${SINGULAR[kind]} replaces it; one without an id is new. Returns the entries with their ids.`,
    input: {
      type: 'object',
      properties: {
        [kind]: {
          type: 'array',
          minItems: 1,
          maxItems: 100,
          items: {
            type: 'object',
            properties: { id, text: { type: 'string', minLength: 1, maxLength: 20_000 } },
            required: ['text'],
            additionalProperties: false,
          },
        },
      },
      required: [kind],
      additionalProperties: false,
    },
    effect: 'read',
    category: 'spaces',
    async execute(input: Record<string, { id?: string; text: string }[]>, ctx) {
      const { agentId } = agentOf(deps, name, ctx.callId);
      const entries = input[kind].map((e) => ({
        id: e.id ?? `${SINGULAR[kind][0]}_${randomBytes(4).toString('hex')}`,
        text: e.text,
      }));
      return json({ [kind]: await deps.store.spaces.setNotes(agentId, kind, entries, Date.now()) });
    },
  });
}

function deleteTool(deps: BuiltinDeps, kind: NoteKind): Tool {
  const name = `delete_${kind}`;
  return defineTool({
    name,
    description: `Delete your ${kind} by id. Returns the ids deleted and those not found.`,
    input: {
      type: 'object',
      properties: { ids: { type: 'array', items: id, minItems: 1, maxItems: 100 } },
      required: ['ids'],
      additionalProperties: false,
    },
    effect: 'read',
    category: 'spaces',
    async execute(input: { ids: string[] }, ctx) {
      const { agentId } = agentOf(deps, name, ctx.callId);
      const deleted = await deps.store.spaces.deleteNotes(agentId, kind, input.ids);
      return json({ deleted, notFound: input.ids.filter((i) => !deleted.includes(i)) });
    },
  });
}

export function noteTools(deps: BuiltinDeps): Tool[] {
  return [
    setTool(deps, 'goals'),
    deleteTool(deps, 'goals'),
    setTool(deps, 'memories'),
    deleteTool(deps, 'memories'),
    setTool(deps, 'plans'),
    deleteTool(deps, 'plans'),
    defineTool({
      name: 'get_plans',
      description: 'Read your plans.',
      input: { type: 'object', properties: {}, additionalProperties: false },
      effect: 'read',
      category: 'spaces',
      async execute(_input, ctx) {
        const { agentId } = agentOf(deps, 'get_plans', ctx.callId);
        return json({ plans: await deps.store.spaces.listNotes(agentId, 'plans') });
      },
    }),
  ];
}
