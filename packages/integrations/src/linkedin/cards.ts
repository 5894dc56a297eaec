// LinkedIn's public ("guest") job search answers with an HTML fragment of <li> job cards; this reads
// them into plain records. Class names are those of the public pages (base-search-card__title, ...).
import { parseHTML } from 'linkedom';
import { jobIdOf } from './ids.js';

export interface JobCard {
  id: string;
  title: string;
  company: string;
  location: string;
  /** ISO date the posting was listed, when given. */
  listed?: string;
  /** LinkedIn's own words ("2 days ago"). */
  ago?: string;
  salary?: string;
  url: string;
}

type El = {
  getAttribute(name: string): string | null;
  textContent: string | null;
  querySelector(s: string): El | null;
};

const text = (el: El | null | undefined): string => (el?.textContent ?? '').replace(/\s+/g, ' ').trim();

export function parseJobCards(html: string): JobCard[] {
  const { document } = parseHTML(`<html><body><ul>${html}</ul></body></html>`);
  const cards: JobCard[] = [];
  for (const card of document.querySelectorAll('.base-card, .job-search-card, [data-entity-urn]') as unknown as El[]) {
    const link = card.querySelector('a.base-card__full-link, a[href*="/jobs/view/"]');
    const href = link?.getAttribute('href') ?? '';
    const id = jobIdOf(card.getAttribute('data-entity-urn') ?? '') ?? jobIdOf(href);
    if (!id || cards.some((c) => c.id === id)) continue;
    const time = card.querySelector('time');
    const salary = text(card.querySelector('.job-search-card__salary-info'));
    cards.push({
      id,
      title: text(card.querySelector('.base-search-card__title')) || text(link),
      company: text(card.querySelector('.base-search-card__subtitle')),
      location: text(card.querySelector('.job-search-card__location')),
      ...(time?.getAttribute('datetime') ? { listed: time.getAttribute('datetime')! } : {}),
      ...(text(time) ? { ago: text(time) } : {}),
      ...(salary ? { salary } : {}),
      url: `https://www.linkedin.com/jobs/view/${id}`,
    });
  }
  return cards;
}

/** One compact line per job: id | title | company | location | listed | salary. */
export function jobLine(job: JobCard): string {
  const when = job.listed ? `${job.listed}${job.ago ? ` (${job.ago})` : ''}` : (job.ago ?? '');
  return [job.id, job.title, job.company, job.location, when, job.salary].filter(Boolean).join(' | ');
}
