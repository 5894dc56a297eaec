import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Executor, Policy, textOf, ToolRegistry } from '@toolbelt/core';
import { serve, type TestServer } from '../__fixtures__/server.js';
import { linkedinTools } from './index.js';

// The markup of LinkedIn's public job pages (jobs-guest), trimmed to what the tools read.
function card(id: number, title: string, extra = '') {
  return `<li><div class="base-card relative job-search-card" data-entity-urn="urn:li:jobPosting:${id}">
    <a class="base-card__full-link" href="https://de.linkedin.com/jobs/view/${title.toLowerCase().replace(/ /g, '-')}-${id}?refId=abc&amp;trackingId=x"><span class="sr-only">${title}</span></a>
    <div class="base-search-card__info"><h3 class="base-search-card__title">\n  ${title}\n</h3>
    <h4 class="base-search-card__subtitle"><a href="https://www.linkedin.com/company/acme">Acme &amp; Co</a></h4>
    <div class="base-search-card__metadata"><span class="job-search-card__location">Berlin, Germany</span>${extra}
    <time class="job-search-card__listdate" datetime="2025-05-0${id % 9}">1 week ago</time></div></div></div></li>`;
}

const POSTING = `<section class="top-card-layout"><h2 class="top-card-layout__title">Senior Rust Engineer</h2>
  <h4><span class="topcard__flavor"><a class="topcard__org-name-link" href="#">Acme &amp; Co</a></span>
  <span class="topcard__flavor topcard__flavor--bullet">Berlin, Germany</span></h4>
  <span class="posted-time-ago__text">2 weeks ago</span><figcaption class="num-applicants__caption">Over 200 applicants</figcaption></section>
  <div class="description__text"><div class="show-more-less-html__markup"><p><strong>About us</strong></p><p>We build tools &amp; agents.</p>
  <ul><li>Rust</li><li>TypeScript</li></ul><script>track()</script></div></div>
  <ul class="description__job-criteria-list"><li class="description__job-criteria-item"><h3 class="description__job-criteria-subheader">Seniority level</h3>
  <span class="description__job-criteria-text">Mid-Senior level</span></li><li class="description__job-criteria-item">
  <h3 class="description__job-criteria-subheader">Employment type</h3><span class="description__job-criteria-text">Full-time</span></li></ul>`;

let li: TestServer;
let limited = 0;

beforeAll(async () => {
  li = await serve((req, res) => {
    if (limited > 0) {
      limited--;
      return void res.writeHead(429, { 'retry-after': '0' }).end('');
    }
    if (req.url.pathname === '/jobs-guest/jobs/api/seeMoreJobPostings/search') {
      const start = Number(req.url.searchParams.get('start'));
      // 25 jobs in all, 10 per page, as the public search pages them.
      const ids = Array.from({ length: 25 }, (_, i) => 4000000000 + i).slice(start, start + 10);
      return void res
        .writeHead(200, { 'content-type': 'text/html' })
        .end(
          ids
            .map((id, i) =>
              card(
                id,
                `Rust Engineer ${start + i + 1}`,
                i === 0 ? '<span class="job-search-card__salary-info">€80K - €100K</span>' : '',
              ),
            )
            .join('\n'),
        );
    }
    const detail = /^\/jobs-guest\/jobs\/api\/jobPosting\/(\d+)$/.exec(req.url.pathname);
    if (detail?.[1] === '4000000001') return void res.writeHead(200, { 'content-type': 'text/html' }).end(POSTING);
    res.writeHead(404).end('');
  });
});
afterAll(() => li.close());

const executor = () =>
  new Executor({
    registry: new ToolRegistry().registerAll(linkedinTools({ baseUrl: li.origin, retry: { baseDelayMs: 1 } })),
    policy: new Policy({ mode: 'safe' }),
  });

describe('linkedin_jobs', () => {
  it('sends the filters as the public search codes and lists jobs as compact lines', async () => {
    const r = await executor().call({
      tool: 'linkedin_jobs',
      input: {
        keywords: 'rust',
        location: 'Berlin',
        posted: 'past_week',
        job_type: ['full_time', 'contract'],
        workplace: ['remote'],
        experience: ['mid_senior'],
        sort: 'recent',
        limit: 2,
      },
    });
    expect(r.status).toBe('success');
    expect(r.approvedBy).toBe('auto');
    const q = li.seen.at(-1)!.url.searchParams;
    expect(Object.fromEntries(q)).toEqual({
      keywords: 'rust',
      location: 'Berlin',
      f_TPR: 'r604800',
      f_JT: 'F,C',
      f_WT: '2',
      f_E: '4',
      sortBy: 'DD',
      start: '0',
    });
    expect(li.seen.at(-1)!.headers['user-agent']).toMatch(/Mozilla/);
    expect(textOf(r)).toBe(
      [
        'LinkedIn jobs for "rust" in Berlin (1-2; more: start=2):',
        '4000000000 | Rust Engineer 1 | Acme & Co | Berlin, Germany | 2025-05-04 (1 week ago) | €80K - €100K',
        '4000000001 | Rust Engineer 2 | Acme & Co | Berlin, Germany | 2025-05-05 (1 week ago)',
      ].join('\n'),
    );
  });

  it('pages through the search until the limit is met or the results end', async () => {
    const before = li.seen.length;
    const r = await executor().call({ tool: 'linkedin_jobs', input: { keywords: 'rust', limit: 50, start: 5 } });
    expect(textOf(r).split('\n')).toHaveLength(21);
    expect(textOf(r)).toContain('(6-25; more: start=25)');
    expect(li.seen.slice(before).map((s) => s.url.searchParams.get('start'))).toEqual(['5', '15', '25']);
  });

  it('says so when nothing matches', async () => {
    const r = await executor().call({ tool: 'linkedin_jobs', input: { keywords: 'rust', start: 40 } });
    expect(textOf(r)).toBe('No LinkedIn jobs for "rust" from result 40.');
  });

  it('waits out a 429 with Retry-After and then answers', async () => {
    limited = 2;
    const r = await executor().call({ tool: 'linkedin_jobs', input: { keywords: 'rust', limit: 1 } });
    expect(r.status).toBe('success');
    expect(limited).toBe(0);
  });

  it('says to wait when the rate limit outlasts the retries', async () => {
    limited = 10;
    try {
      const r = await executor().call({ tool: 'linkedin_jobs', input: { keywords: 'rust' } });
      expect(r.error).toMatchObject({ code: 'EXECUTION_FAILED', recoverable: true });
      expect(r.error?.message).toContain('LinkedIn rate limit reached (HTTP 429)');
    } finally {
      limited = 0;
    }
  });
});

describe('linkedin_job_detail', () => {
  it('reads a posting by URL: header, criteria and the description as plain text', async () => {
    const r = await executor().call({
      tool: 'linkedin_job_detail',
      input: { job: 'https://www.linkedin.com/jobs/view/senior-rust-engineer-4000000001?trk=x' },
    });
    expect(li.seen.at(-1)!.url.pathname).toBe('/jobs-guest/jobs/api/jobPosting/4000000001');
    expect(textOf(r)).toBe(
      [
        'Senior Rust Engineer — Acme & Co',
        'Location: Berlin, Germany',
        'Posted: 2 weeks ago · Over 200 applicants',
        'Seniority level: Mid-Senior level',
        'Employment type: Full-time',
        'URL: https://www.linkedin.com/jobs/view/4000000001',
        '',
        'About us',
        '',
        'We build tools & agents.',
        '',
        '- Rust',
        '- TypeScript',
      ].join('\n'),
    );
  });

  it('refuses input that names no job, and reports a posting that is gone', async () => {
    const bad = await executor().call({ tool: 'linkedin_job_detail', input: { job: 'rust engineer' } });
    expect(bad.error?.code).toBe('INVALID_PARAMS');
    expect(bad.error?.message).toContain('names no LinkedIn job');
    const gone = await executor().call({ tool: 'linkedin_job_detail', input: { job: '4999999999' } });
    expect(gone.error?.code).toBe('NOT_FOUND');
  });
});
