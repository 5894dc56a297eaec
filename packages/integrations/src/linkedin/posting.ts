// One public job posting page (jobs-guest/jobs/api/jobPosting/<id>): title, company, location,
// the criteria list (seniority, employment type, ...) and the description as plain text.
import { parseHTML } from 'linkedom';
import { htmlToText } from '../text/html.js';

export interface JobPosting {
  title: string;
  company: string;
  location: string;
  ago?: string;
  applicants?: string;
  criteria: [string, string][];
  description: string;
}

type El = {
  textContent: string | null;
  innerHTML: string;
  querySelector(s: string): El | null;
  querySelectorAll(s: string): Iterable<El>;
};

const text = (el: El | null | undefined): string => (el?.textContent ?? '').replace(/\s+/g, ' ').trim();

export function parsePosting(html: string): JobPosting | undefined {
  const { document } = parseHTML(`<html><body>${html}</body></html>`);
  const doc = document as unknown as El;
  const body = doc.querySelector('.show-more-less-html__markup, .description__text');
  const title = text(doc.querySelector('.top-card-layout__title, .topcard__title'));
  if (!body && !title) return undefined;
  const criteria: [string, string][] = [];
  for (const item of doc.querySelectorAll('.description__job-criteria-item')) {
    const name = text(item.querySelector('.description__job-criteria-subheader'));
    const value = text(item.querySelector('.description__job-criteria-text'));
    if (name && value) criteria.push([name, value]);
  }
  const ago = text(doc.querySelector('.posted-time-ago__text'));
  const applicants = text(doc.querySelector('.num-applicants__caption'));
  return {
    title,
    company: text(doc.querySelector('.topcard__org-name-link, .topcard__flavor a')),
    location: text(doc.querySelector('.topcard__flavor--bullet')),
    ...(ago ? { ago } : {}),
    ...(applicants ? { applicants } : {}),
    criteria,
    description: body ? htmlToText(body.innerHTML) : '',
  };
}
