// docs/tools.md documents every parameter of the file and search tools: a new parameter without a
// line in the docs fails here.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { searchTools } from '../search/index.js';
import { fsTools } from './index.js';

const doc = readFileSync(new URL('../../../../docs/tools.md', import.meta.url), 'utf8');
const section = (name: string) =>
  doc.slice(doc.indexOf(`<!-- tools:${name} -->`), doc.indexOf(`<!-- /tools:${name} -->`));

describe('docs/tools.md', () => {
  for (const [family, tools] of [
    ['fs', fsTools()],
    ['search', searchTools({ settings: { engine: 'js' } })],
  ] as const) {
    it.each(tools.map((t) => [t.name, t] as const))(
      `${family} section documents %s and each of its parameters`,
      (name, tool) => {
        const text = section(family);
        expect(text.length).toBeGreaterThan(0);
        expect(text).toContain(`\`${name}\``);
        const props = Object.keys((tool.jsonSchema.properties ?? {}) as Record<string, unknown>);
        expect(props.length).toBeGreaterThan(0);
        const row = text.split('\n').find((l) => l.startsWith(`| \`${name}\``)) ?? '';
        for (const p of props) expect(row, `${name}.${p}`).toContain(`\`${p}\``);
      },
    );
  }
});
