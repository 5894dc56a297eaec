// Headless Chromium (Debian's chromium package) driven by playwright-core, for the console's tests.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';

export const SHOTS = fileURLToPath(new URL('../../../../test-results/console/', import.meta.url));
export const CONSOLE_DIR = fileURLToPath(new URL('../../../gateway/dist/console-assets/', import.meta.url));

/** The system chromium, or undefined when it is not installed. */
export function findChromium(): string | undefined {
  for (const name of ['chromium', 'chromium-browser', 'google-chrome']) {
    try {
      return execFileSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).trim() || undefined;
    } catch {
      // not this one
    }
  }
  return undefined;
}

export async function launch(executablePath: string): Promise<Browser> {
  mkdirSync(SHOTS, { recursive: true });
  if (!existsSync(`${CONSOLE_DIR}index.html`))
    throw new Error(`the console is not built (${CONSOLE_DIR}); run npm run build first`);
  // --no-sandbox: CI runs as root, where Chromium's own sandbox cannot start.
  return chromium.launch({ executablePath, args: ['--no-sandbox', '--disable-dev-shm-usage'] });
}

/** A page that records every console error and uncaught exception, to be asserted empty. */
export async function openPage(
  browser: Browser,
  viewport = { width: 1280, height: 800 },
): Promise<{ page: Page; errors: string[] }> {
  // Reduced motion: charts are drawn at once, so screenshots show their final values.
  const context = await browser.newContext({ viewport, reducedMotion: 'reduce' });
  const page = await context.newPage();
  // Below the test's own 30 s, so a step that never comes names its locator instead of timing the test out.
  page.setDefaultTimeout(15_000);
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(e.message));
  return { page, errors };
}

/**
 * Opens the page without a token: the gateway answers 401, which the page turns into the token
 * form (Chromium logs that 401 as a failed resource; it is the one expected error, dropped here).
 */
export async function signIn(
  page: Page,
  errors: string[],
  url: string,
  token: string,
  hash = '#/approvals',
): Promise<void> {
  await page.goto(`${url}/${hash}`);
  await page.getByLabel('Token').fill(token);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.locator('header.top').waitFor();
  const unexpected = errors.filter((e) => !e.includes('status of 401 (Unauthorized)'));
  errors.splice(0, errors.length, ...unexpected);
}

export async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: `${SHOTS}${name}.png`, fullPage: true });
}

/** What sticks out past the right edge (nothing should, at any width), as tag.class and its right edge. */
export async function overflowsSideways(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    document.documentElement.scrollWidth <= window.innerWidth + 1
      ? []
      : [...document.querySelectorAll('body *')]
          .filter((e) => e.getBoundingClientRect().right > window.innerWidth + 1)
          .slice(0, 6)
          .map((e) => `${e.tagName.toLowerCase()}.${e.className} ${Math.round(e.getBoundingClientRect().right)}`),
  );
}

/** Presses Tab until the focused element matches `selector` (at most `limit` times), as a keyboard user would. */
export async function tabTo(page: Page, selector: string, limit = 60): Promise<void> {
  for (let i = 0; i < limit; i++) {
    if (await page.evaluate((sel) => document.activeElement?.matches(sel) ?? false, selector)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${selector}`);
}
