// The console's details, in headless Chromium over a real gateway: the sign-in page shows no error
// until a token was tried; idle activity charts start at 0 and say they are idle; the latency
// metric leaves out the wait for approval; every time on the page uses one clock; "try it" shows
// text as text.
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import type { MetricsAnswer } from '@toolbelt/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { echoTool, noteTool, startGateway, until, type Harness } from '../../../gateway/src/__fixtures__/harness.js';
import { findChromium, launch, openPage, signIn } from './browser.js';
import { tmpShot } from './tmp-shots.js';

const ADMIN = 'admin-token-0123456789abcdef';
const chromiumPath = findChromium();
const required = process.env.TOOLBELT_REQUIRE_BROWSER === '1';
const UNAUTHORIZED = 'status of 401 (Unauthorized)';

describe.skipIf(!chromiumPath && !required)('console details', () => {
  let h: Harness;
  let ws: string;
  let browser: Browser;

  beforeAll(async () => {
    if (!chromiumPath)
      throw new Error('TOOLBELT_REQUIRE_BROWSER=1 but chromium is not installed: apt-get install chromium');
    ws = realpathSync(mkdtempSync(join(tmpdir(), 'tb-console-details-')));
    h = await startGateway({
      config: { gateway: { tokens: [{ name: 'ops', token: ADMIN, roles: ['admin'] }] } },
      dir: ws,
      db: join(ws, '.toolbelt', 'gateway.db'),
      tools: [echoTool, noteTool],
    });
    browser = await launch(chromiumPath);
  });
  afterAll(async () => {
    await browser?.close();
    await h?.cleanup();
    if (ws) rmSync(ws, { recursive: true, force: true });
  });

  it('the sign-in page shows no error on arrival; a wrong token is refused in words; the right one signs in', async () => {
    const { page, errors } = await openPage(browser);
    await page.goto(`${h.url}/#/approvals`);
    await page.getByLabel('Token').waitFor();
    expect(await page.locator('.token .error, [role="alert"]').count()).toBe(0);
    await tmpShot(page, 'sign-in-arrival');
    await page.getByLabel('Token').fill('not-the-token');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').getByText('That token was not accepted').waitFor();
    await tmpShot(page, 'sign-in-refused');
    await page.getByLabel('Token').fill(ADMIN);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.locator('header.top').waitFor();
    // Chromium logs each 401 answer as a failed resource; nothing else may be logged.
    expect(errors.filter((e) => !e.includes(UNAUTHORIZED))).toEqual([]);
  });

  it('idle activity: the charts start at 0 and say so; the latency chart is an empty state', async () => {
    const { page, errors } = await openPage(browser);
    await signIn(page, errors, h.url, ADMIN, '#/activity');
    await page.getByText('idle: no calls').waitFor();
    await page.getByText('No calls yet. Each tool').waitFor();
    const ranges = await page
      .locator('.metrics canvas')
      .evaluateAll((cs) => cs.map((c) => (c as HTMLCanvasElement).dataset.yRange));
    expect(ranges).toEqual(['0..1', '0..1']);
    await tmpShot(page, 'activity-idle');
    expect(errors).toEqual([]);
  });

  it("latency leaves out the wait for approval: the metric is below the same call's whole duration", async () => {
    const agent = h.client({ token: ADMIN, agentId: 'coder' });
    const call = agent.call('run-l', 'write_note', { note: 'slow to approve' }, { callId: 'slow-1' });
    await until(
      () => agent.getCall('slow-1').catch(() => undefined),
      (c) => c?.status === 'awaiting_approval',
      'the call to wait for approval',
    );
    // The person takes a while (at least 300 ms) before approving.
    await new Promise((r) => setTimeout(r, 300));
    await agent.approve('slow-1');
    const result = await call;
    expect(result.status).toBe('success');
    const res = await fetch(`${h.url}/api/metrics`, { headers: { authorization: `Bearer ${ADMIN}` } });
    const m = (await res.json()) as MetricsAnswer;
    const note = m.tools.find((t) => t.tool === 'write_note')!;
    expect(result.durationMs).toBeGreaterThanOrEqual(300);
    expect(result.durationMs - note.p50Ms).toBeGreaterThanOrEqual(250);
  });

  it('every time on the page uses the same clock; "try it" shows text as text', async () => {
    const { page, errors } = await openPage(browser);
    await signIn(page, errors, h.url, ADMIN, '#/tools');
    await page.getByRole('button', { name: /^echo/ }).click();
    await page.getByLabel('text').fill('line one\nline "two"');
    await page.getByRole('button', { name: 'Run echo' }).click();
    const text = page.locator('.result pre.text-result');
    await text.waitFor();
    expect(await text.innerText()).toBe('echo: line one\nline "two"');
    await tmpShot(page, 'try-it-text');
    await page.goto(`${h.url}/#/activity`);
    await page.locator('.log-list .row', { hasText: 'echo' }).first().click();
    await page.locator('article.detail pre.text-result').getByText('line "two"').waitFor();
    const times = [
      ...(await page.locator('.log-list .row .t').allInnerTexts()),
      await page.locator('article.detail dd').nth(1).innerText(),
    ];
    expect(times.length).toBeGreaterThan(1);
    const twelveHour = times.map((t) => /\b(AM|PM)\b/i.test(t));
    expect(new Set(twelveHour).size, times.join(' | ')).toBe(1);
    expect(errors).toEqual([]);
  });
});
