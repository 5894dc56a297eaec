import { defineTool, type Tool } from '@toolbelt/core';
import { z } from 'zod';
import type { SearchProvider } from './search/provider.js';

const MAX_QUERY = 400;

const description = `Search the web and get a numbered list of results, each with title, URL and a short description.
Use it to find pages, then read the promising ones with web_fetch. count: 1-20 results, default 5. Queries longer than ${MAX_QUERY} characters are cut.`;

const input = z.object({
  query: z.string().trim().min(1).describe(`What to search for, as you would type it into a search engine (at most ${MAX_QUERY} characters).`),
  count: z.number().int().min(1).max(20).default(5).describe('How many results, 1-20. Default 5.'),
});

export function webSearchTool(provider: SearchProvider): Tool {
  return defineTool({
    name: 'web_search',
    title: 'Web search',
    description,
    input,
    category: 'web',
    annotations: { openWorld: true },
    timeoutMs: 35_000,
    effect: 'read',
    async execute({ query, count }, ctx) {
      const q = query.length > MAX_QUERY ? query.slice(0, MAX_QUERY) : query;
      const results = await provider.search(q, count, ctx.signal);
      const cutNote = q.length < query.length ? ` (query cut to ${MAX_QUERY} characters)` : '';
      if (!results.length) return { content: `No results for "${q}"${cutNote}.`, metadata: { provider: provider.name, count: 0 } };
      const lines = results.map((r, i) => `${i + 1}. ${r.title}\n   ${r.url}${r.description ? `\n   ${r.description}` : ''}`);
      return {
        content: `Results for "${q}" (${results.length} via ${provider.name})${cutNote}:\n\n${lines.join('\n\n')}`,
        display: { kind: 'table', columns: ['#', 'title', 'url'], rows: results.map((r, i) => [i + 1, r.title, r.url]) },
        metadata: { provider: provider.name, count: results.length },
      };
    },
  });
}
