import { defineTool, type Tool } from '@toolbelt/core';
import { WEB } from './group.js';
import { z } from 'zod';
import type { SearchProvider } from './search/provider.js';

const MAX_QUERY = 400;
const MAX_COUNT = 20;

const description = `Search the web: numbered results with title, URL and snippet. Read good ones with web_fetch.`;

const input = z.object({
  query: z.string().trim().min(1).describe(`Query; cut at ${MAX_QUERY} chars.`),
  // Clamped into 1-20 rather than refused: asking for 50 results still gets the 20 there are.
  count: z.number().int().default(5).describe('Results, 1-20.'),
});

export function webSearchTool(provider: SearchProvider): Tool {
  return defineTool({
    name: 'web_search',
    title: 'Web search',
    description,
    input,
    category: 'web',
    group: WEB,
    annotations: { openWorld: true },
    timeoutMs: 35_000,
    effect: 'read',
    async execute({ query, count: asked }, ctx) {
      const count = Math.min(MAX_COUNT, Math.max(1, asked));
      const q = query.length > MAX_QUERY ? query.slice(0, MAX_QUERY) : query;
      const results = await provider.search(q, count, ctx.signal);
      const cutNote = q.length < query.length ? ` (query cut to ${MAX_QUERY} characters)` : '';
      if (!results.length)
        return { content: `No results for "${q}"${cutNote}.`, metadata: { provider: provider.name, count: 0 } };
      const lines = results.map(
        (r, i) => `${i + 1}. ${r.title}\n   ${r.url}${r.description ? `\n   ${r.description}` : ''}`,
      );
      return {
        content: `Results for "${q}" (${results.length} via ${provider.name})${cutNote}:\n\n${lines.join('\n\n')}`,
        display: {
          kind: 'table',
          columns: ['#', 'title', 'url'],
          rows: results.map((r, i) => [i + 1, r.title, r.url]),
        },
        metadata: { provider: provider.name, count: results.length },
      };
    },
  });
}
