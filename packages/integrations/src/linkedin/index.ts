// LinkedIn's public job search and postings: always registered, no account needed.
import type { Tool } from '@toolbelt/core';
import { linkedInClient, type LinkedInOptions } from './client.js';
import { linkedinJobDetailTool } from './linkedin_job_detail.js';
import { linkedinJobsTool } from './linkedin_jobs.js';

export type { LinkedInOptions } from './client.js';

export function linkedinTools(opts: LinkedInOptions = {}): Tool[] {
  const client = linkedInClient(opts);
  return [linkedinJobsTool(client), linkedinJobDetailTool(client)];
}
