import { defineTool, ToolError, type Tool } from '@toolbelt/core';
import { LINKEDIN } from './group.js';
import { z } from 'zod';
import type { ApiClient } from '../net/api.js';
import { jobIdOf } from './ids.js';

const description = `Read one LinkedIn job posting: title, company, location, criteria and the full description as text.`;

const input = z.object({
  job: z
    .string()
    .trim()
    .min(1)
    .max(2000)
    .describe('A job id from linkedin_jobs, or a LinkedIn job URL (…/jobs/view/…-1234567890).'),
});

export function linkedinJobDetailTool(client: ApiClient): Tool {
  return defineTool({
    name: 'linkedin_job_detail',
    title: 'LinkedIn job posting',
    description,
    input,
    category: 'integrations',
    group: LINKEDIN,
    annotations: { openWorld: true },
    effect: 'read',
    timeoutMs: 45_000,
    validate: ({ job }) =>
      jobIdOf(job)
        ? undefined
        : `"${job.slice(0, 80)}" names no LinkedIn job; pass the id linkedin_jobs printed or a URL like https://www.linkedin.com/jobs/view/1234567890`,
    async execute({ job }, ctx) {
      const { parsePosting } = await import('./posting.js');
      const id = jobIdOf(job)!;
      const html = await client.text(
        `/jobs-guest/jobs/api/jobPosting/${id}`,
        { headers: { Accept: 'text/html' } },
        ctx.signal,
      );
      const posting = parsePosting(html);
      if (!posting)
        throw new ToolError('NOT_FOUND', `LinkedIn job ${id} has no posting to read; it may have been taken down`);
      const head = [
        `${posting.title}${posting.company ? ` — ${posting.company}` : ''}`,
        posting.location && `Location: ${posting.location}`,
        [posting.ago && `Posted: ${posting.ago}`, posting.applicants].filter(Boolean).join(' · '),
        ...posting.criteria.map(([k, v]) => `${k}: ${v}`),
        `URL: https://www.linkedin.com/jobs/view/${id}`,
      ].filter(Boolean);
      return { content: `${head.join('\n')}\n\n${posting.description || '(no description)'}`, metadata: { id } };
    },
  });
}
