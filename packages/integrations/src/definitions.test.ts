// What a model pays for the integrations on every turn: their definitions (name, description, input
// schema), in o200k tokens. Not part of the built-ins' budget (cli/src/definitions.test.ts); a group
// per service lets an agent load only the ones it needs.
import { describe, expect, it } from 'vitest';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import { integrationTools } from './index.js';

const { tools } = integrationTools({
  env: { GOOGLE_CLIENT_ID: 'id', GOOGLE_CLIENT_SECRET: 's', ANTHROPIC_ADMIN_API_KEY: 'k' },
  stateDir: '/nonexistent',
});
const tokens = (t: (typeof tools)[number]) =>
  encode(JSON.stringify({ name: t.name, description: t.description, inputSchema: t.jsonSchema })).length;

describe('integration tool definitions', () => {
  it('document every parameter', () => {
    for (const t of tools) {
      expect(t.description, t.name).toBeTruthy();
      for (const [name, prop] of Object.entries(
        (t.jsonSchema.properties ?? {}) as Record<string, { description?: string }>,
      )) {
        expect(prop.description, `${t.name}.${name}`).toBeTruthy();
      }
    }
  });

  it('stay within their token budget: 1,950 for all nine, 400 for any one', () => {
    expect(tools).toHaveLength(9);
    for (const t of tools) expect(tokens(t), t.name).toBeLessThanOrEqual(400);
    expect(tools.reduce((n, t) => n + tokens(t), 0)).toBeLessThanOrEqual(1950);
  });

  it('publish no email pattern, which each address field would repeat', () => {
    const patterns = [...JSON.stringify(tools.map((t) => t.jsonSchema)).matchAll(/"pattern":"([^"]*)"/g)].map(
      (m) => m[1],
    );
    expect(patterns.length).toBeGreaterThan(0);
    expect(patterns.filter((p) => p.includes('@'))).toEqual([]);
  });
});
