import { defineTool, type Tool } from '@toolbelt/core';
import { LINKEDIN } from './group.js';
import { z } from 'zod';
import type { ApiClient } from '../net/api.js';
import type { JobCard } from './cards.js';

const description = `Search public LinkedIn job postings. One line per job: id | title | company | location | listed | salary. Pass an id to linkedin_job_detail for the full description.`;

// The public search's filter codes (f_TPR, f_JT, f_WT, f_E, sortBy).
const POSTED = { any: undefined, past_24h: 'r86400', past_week: 'r604800', past_month: 'r2592000' } as const;
const JOB_TYPES = {
  full_time: 'F',
  part_time: 'P',
  contract: 'C',
  temporary: 'T',
  internship: 'I',
  volunteer: 'V',
  other: 'O',
} as const;
const WORKPLACE = { on_site: '1', remote: '2', hybrid: '3' } as const;
const EXPERIENCE = {
  internship: '1',
  entry: '2',
  associate: '3',
  mid_senior: '4',
  director: '5',
  executive: '6',
} as const;
const SORT = { relevant: 'R', recent: 'DD' } as const;

const keys = <T extends object>(o: T) => Object.keys(o) as [keyof T & string, ...(keyof T & string)[]];

const input = z.object({
  keywords: z.string().trim().min(1).max(200).describe('Job title, skill or company, e.g. "rust engineer".'),
  location: z.string().trim().max(100).optional().describe('City, region or country, e.g. "Berlin, Germany".'),
  posted: z.enum(keys(POSTED)).default('any').describe('How recently the job was posted.'),
  job_type: z
    .array(z.enum(keys(JOB_TYPES)))
    .max(7)
    .optional()
    .describe('Any of these types.'),
  workplace: z
    .array(z.enum(keys(WORKPLACE)))
    .max(3)
    .optional()
    .describe('Any of these workplaces; ["remote"] for remote only.'),
  experience: z
    .array(z.enum(keys(EXPERIENCE)))
    .max(6)
    .optional()
    .describe('Any of these levels.'),
  sort: z.enum(keys(SORT)).default('relevant').describe('"recent": newest first.'),
  limit: z.number().int().min(1).max(50).default(10).describe('Jobs to return.'),
  start: z.number().int().min(0).max(1000).default(0).describe('Skip this many results (paging).'),
});

type Input = z.infer<typeof input>;

function searchQuery(i: Input, start: number) {
  const codes = <T extends Record<string, string>>(table: T, picked?: (keyof T)[]) =>
    picked?.length ? picked.map((p) => table[p]).join(',') : undefined;
  return {
    keywords: i.keywords,
    location: i.location,
    f_TPR: POSTED[i.posted],
    f_JT: codes(JOB_TYPES, i.job_type),
    f_WT: codes(WORKPLACE, i.workplace),
    f_E: codes(EXPERIENCE, i.experience),
    sortBy: SORT[i.sort],
    start,
  };
}

export function linkedinJobsTool(client: ApiClient): Tool {
  return defineTool({
    name: 'linkedin_jobs',
    title: 'LinkedIn job search',
    description,
    input,
    category: 'integrations',
    group: LINKEDIN,
    annotations: { openWorld: true },
    effect: 'read',
    timeoutMs: 60_000,
    async execute(i, ctx) {
      // The HTML parser loads with the first search, not with the tool.
      const { jobLine, parseJobCards } = await import('./cards.js');
      const jobs: JobCard[] = [];
      // A page holds 10 to 25 cards; ask for more pages until the limit is met or a page is empty.
      for (let offset = i.start; jobs.length < i.limit;) {
        const html = await client.text(
          '/jobs-guest/jobs/api/seeMoreJobPostings/search',
          { query: searchQuery(i, offset), headers: { Accept: 'text/html' } },
          ctx.signal,
        );
        const page = parseJobCards(html).filter((c) => !jobs.some((j) => j.id === c.id));
        if (!page.length) break;
        jobs.push(...page);
        offset += page.length;
      }
      const shown = jobs.slice(0, i.limit);
      const where = i.location ? ` in ${i.location}` : '';
      if (!shown.length)
        return {
          content: `No LinkedIn jobs for "${i.keywords}"${where}${i.start ? ` from result ${i.start}` : ''}.`,
          metadata: { count: 0 },
        };
      const next = i.start + shown.length;
      return {
        content: `LinkedIn jobs for "${i.keywords}"${where} (${i.start + 1}-${next}; more: start=${next}):\n${shown.map(jobLine).join('\n')}`,
        display: {
          kind: 'table',
          columns: ['id', 'title', 'company', 'location', 'listed'],
          rows: shown.map((j) => [j.id, j.title, j.company, j.location, j.listed ?? j.ago ?? '']),
        },
        metadata: { count: shown.length },
      };
    },
  });
}
