// The newest message in a space is always in view: headless Chromium over a real gateway, a space
// with more messages than fit, at desktop and phone size. "In view" is measured, not assumed: the
// message's box is inside the viewport and the element at its centre (and near its bottom edge)
// is the message itself, not the message box drawn over it. The navigation stays at the top.
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, until, type Harness } from '../../../gateway/src/__fixtures__/harness.js';
import { findChromium, launch, openPage, signIn } from './browser.js';
import { tmpShot } from './tmp-shots.js';

const ADMIN = 'admin-token-0123456789abcdef';
const HUSAM = 'husam-token-0123456789abcdef';
const chromiumPath = findChromium();
const required = process.env.TOOLBELT_REQUIRE_BROWSER === '1';

interface Seen {
  inViewport: boolean;
  uncovered: boolean;
  coveredBy?: string;
  navAtTop: boolean;
  pageScrolls: boolean;
}

/** Where the element is, as a person would see it. */
function seen(el: Locator): Promise<Seen> {
  return el.evaluate((e) => {
    const r = e.getBoundingClientRect();
    const x = r.left + r.width / 2;
    const hits = [document.elementFromPoint(x, r.top + r.height / 2), document.elementFromPoint(x, r.bottom - 3)];
    const cover = hits.find((h) => !h || !e.contains(h));
    const nav = document.querySelector('header.top')!.getBoundingClientRect();
    const root = document.scrollingElement!;
    return {
      inViewport: r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth,
      uncovered: !cover,
      ...(cover ? { coveredBy: `${cover.tagName.toLowerCase()}.${cover.className}` } : {}),
      navAtTop: nav.top === 0 && nav.height > 0,
      pageScrolls: root.scrollHeight > innerHeight + 1 || root.scrollTop > 0,
    };
  });
}

const VISIBLE: Seen = { inViewport: true, uncovered: true, navAtTop: true, pageScrolls: false };

/** Waits (a few frames at most: scrolling follows a render) until the message is fully seen. */
async function expectInView(page: Page, text: string, what: string): Promise<void> {
  const msg = page.locator('.msg', { hasText: text }).last();
  await msg.waitFor();
  const last = await until(
    () => seen(msg),
    (s) => s.inViewport && s.uncovered && s.navAtTop && !s.pageScrolls,
    `${what}: "${text}" in view`,
  ).catch(async () => seen(msg));
  expect(last, `${what}: "${text}"`).toEqual(VISIBLE);
}

describe.skipIf(!chromiumPath && !required)('the newest message in a space is in view', () => {
  let h: Harness;
  let ws: string;
  let browser: Browser;

  beforeAll(async () => {
    if (!chromiumPath)
      throw new Error('TOOLBELT_REQUIRE_BROWSER=1 but chromium is not installed: apt-get install chromium');
    ws = realpathSync(mkdtempSync(join(tmpdir(), 'tb-console-spaces-')));
    h = await startGateway({
      config: {
        gateway: {
          tokens: [
            { name: 'ops', token: ADMIN, roles: ['admin'] },
            { name: 'husam', token: HUSAM, roles: ['person'] },
          ],
        },
      },
      dir: ws,
      db: join(ws, '.toolbelt', 'gateway.db'),
    });
    const admin = h.client({ token: ADMIN, agentId: 'ops' });
    await admin.createSpace('Long thread', 'long');
    await admin.addMember('long', 'husam', 'person');
    await admin.addMember('long', 'planner', 'agent');
    for (let i = 1; i <= 40; i++)
      await admin.postMessage(
        'long',
        'planner',
        i % 5 ? `update ${i}` : `update ${i}\nwith a second line\nand a third`,
      );
    browser = await launch(chromiumPath);
  });
  afterAll(async () => {
    await browser?.close();
    await h?.cleanup();
    if (ws) rmSync(ws, { recursive: true, force: true });
  });

  for (const [size, viewport] of [
    ['desktop', { width: 1280, height: 800 }],
    ['phone', { width: 390, height: 844 }],
  ] as const) {
    it(`${size} (${viewport.width}x${viewport.height}): on opening, after sending, after a reload`, async () => {
      const { page, errors } = await openPage(browser, viewport);
      await signIn(page, errors, h.url, HUSAM, '#/spaces/long');
      await expectInView(page, 'update 40', 'on opening');
      const mine = `sent from the ${size}`;
      await page.getByLabel('Message').fill(mine);
      await page.keyboard.press('Enter');
      await expectInView(page, mine, 'after sending');
      await tmpShot(page, `space-${size}-sent`);
      await page.reload();
      await expectInView(page, mine, 'after a reload');
      expect(errors).toEqual([]);
    });
  }

  it('scrolled up, a new message shows a marker instead of moving the list; the marker goes to it', async () => {
    const { page, errors } = await openPage(browser);
    await signIn(page, errors, h.url, HUSAM, '#/spaces/long');
    await expectInView(page, 'update 40', 'on opening');
    const list = page.locator('.messages-scroll');
    await list.evaluate((e) => (e.scrollTop = 0));
    await until(
      () => list.evaluate((e) => e.scrollTop),
      (t) => t === 0,
      'the list scrolled to the top',
    );
    await h.client({ token: ADMIN, agentId: 'ops' }).postMessage('long', 'planner', 'a late update');
    const marker = page.getByRole('button', { name: '1 new message ↓' });
    await marker.waitFor();
    // The person keeps reading where they were.
    expect(await list.evaluate((e) => e.scrollTop)).toBe(0);
    await tmpShot(page, 'space-new-marker');
    await marker.click();
    await expectInView(page, 'a late update', 'after the marker');
    await marker.waitFor({ state: 'detached' });
    expect(errors).toEqual([]);
  });
});
