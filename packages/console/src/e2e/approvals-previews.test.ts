// Every edit shows its change before a person approves it: headless Chromium over a real gateway
// with the built-in file tools, writes of eight kinds of file queued at once (.txt, .md, .toml, .c,
// .ts, a Makefile, a binary replaced, a 5,000-line file), each card showing a non-empty diff with
// the new text in it, and no console error. A card whose preview cannot be shown says so in words
// and keeps Approve off (button and key) until the person opens the arguments.
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { defineTool, type Preview } from '@toolbelt/core';
import { fsTools, WorkspaceGuard } from '@toolbelt/tools';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, until, type Harness } from '../../../gateway/src/__fixtures__/harness.js';
import { findChromium, launch, openPage, signIn } from './browser.js';
import { tmpShot } from './tmp-shots.js';

const ADMIN = 'admin-token-0123456789abcdef';
const chromiumPath = findChromium();
const required = process.env.TOOLBELT_REQUIRE_BROWSER === '1';

/** A tool whose preview is of a kind the console does not know (as a newer gateway's could be). */
const oddPreview = defineTool({
  name: 'paint_logo',
  description: 'Paints the logo (its preview is an image the console cannot draw).',
  input: { type: 'object', properties: { colour: { type: 'string' } }, required: ['colour'] },
  effect: 'write',
  preview: (input: { colour: string }) => ({ kind: 'image', src: `logo-${input.colour}.png` }) as unknown as Preview,
  execute: (input: { colour: string }) => `painted ${input.colour}`,
});

const BIG = Array.from({ length: 5000 }, (_, i) => `row ${i + 1},${(i * 7) % 13}`).join('\n') + '\n';

/** callId -> [path, content, a line the diff must show]. */
const WRITES: Record<string, [string, string, string]> = {
  'w-txt': ['notes.txt', 'remember the milk\n', 'remember the milk'],
  'w-md': ['README.md', '# Title\n\nSome *emphasis* here.\n', 'Some *emphasis* here.'],
  'w-toml': ['config.toml', '[server]\nport = 8080\n', 'port = 8080'],
  'w-c': ['main.c', '#include <stdio.h>\nint main(void) { puts("hi"); return 0; }\n', 'int main(void)'],
  'w-ts': ['app.ts', 'export const answer: number = 42;\n', 'export const answer: number = 42;'],
  'w-noext': ['Makefile', 'all:\n\techo built\n', 'echo built'],
  'w-bin': ['logo.png', 'now a text file\n', 'replaces a binary file'],
  'w-big': ['big.csv', BIG, 'row 1234,'],
};

describe.skipIf(!chromiumPath && !required)('approval cards always show the change', () => {
  let h: Harness;
  let ws: string;
  let browser: Browser;

  beforeAll(async () => {
    if (!chromiumPath)
      throw new Error('TOOLBELT_REQUIRE_BROWSER=1 but chromium is not installed: apt-get install chromium');
    ws = realpathSync(mkdtempSync(join(tmpdir(), 'tb-console-prev-')));
    h = await startGateway({
      config: { gateway: { tokens: [{ name: 'ops', token: ADMIN, roles: ['admin'] }] } },
      dir: ws,
      db: join(ws, '.toolbelt', 'gateway.db'),
      workspace: new WorkspaceGuard({ roots: [ws] }),
      tools: [...fsTools(), oddPreview],
    });
    browser = await launch(chromiumPath);
  });
  afterAll(async () => {
    await browser?.close();
    await h?.cleanup();
    if (ws) rmSync(ws, { recursive: true, force: true });
  });

  it('writes of eight kinds of file each show a non-empty diff with the new text, and approving writes them', async () => {
    writeFileSync(join(ws, 'logo.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]));
    const { page, errors } = await openPage(browser);
    await signIn(page, errors, h.url, ADMIN);
    const agent = h.client({ token: ADMIN, agentId: 'coder' });
    const calls = Object.entries(WRITES).map(([callId, [path, content]]) =>
      agent.call('run-p', 'write_file', { path, content }, { callId }),
    );
    for (const [callId, [path, , shown]] of Object.entries(WRITES)) {
      const card = page.locator(`article.approval[data-call="${callId}"]`);
      const diff = card.locator('.diff');
      await diff.getByText(shown, { exact: false }).first().waitFor();
      expect((await diff.innerText()).trim().length, `${path}: the diff is empty`).toBeGreaterThan(0);
      expect(await card.locator('.preview-failed').count(), `${path}: its preview failed`).toBe(0);
    }
    // The 5,000-line file's diff is cut by the tool; the card says so rather than ending silently.
    await expect(page.locator('article.approval[data-call="w-big"] .diff-note').innerText()).resolves.toMatch(
      /diff cut at/,
    );
    await page.locator('article.approval[data-call="w-txt"]').scrollIntoViewIfNeeded();
    await tmpShot(page, 'approvals-eight-kinds');
    await page.locator('article.approval[data-call="w-bin"]').scrollIntoViewIfNeeded();
    await tmpShot(page, 'approvals-binary');
    for (const callId of Object.keys(WRITES)) {
      const card = page.locator(`article.approval[data-call="${callId}"]`);
      await card.getByRole('button', { name: /Approve once/ }).click();
      await card.waitFor({ state: 'detached' });
    }
    const results = await Promise.all(calls);
    expect(results.map((r) => r.status)).toEqual(Object.keys(WRITES).map(() => 'success'));
    expect(readFileSync(join(ws, 'logo.png'), 'utf8')).toBe('now a text file\n');
    expect(readFileSync(join(ws, 'big.csv'), 'utf8')).toBe(BIG);
    expect(errors).toEqual([]);
    // Eight calls, a 5,000-line diff and eight decisions: room for a busy 2-core machine (nothing here is timed).
  }, 90_000);

  it('a preview the console cannot draw: the card says so, Approve (button and y) stays off until the arguments are opened', async () => {
    const { page, errors } = await openPage(browser);
    await signIn(page, errors, h.url, ADMIN);
    const agent = h.client({ token: ADMIN, agentId: 'coder' });
    const odd = agent.call('run-o', 'paint_logo', { colour: 'teal' }, { callId: 'odd-1' });
    const fine = agent.call(
      'run-o',
      'write_file',
      { path: 'fine.txt', content: 'still shown\n' },
      { callId: 'fine-1' },
    );
    const card = page.locator('article.approval[data-call="odd-1"]');
    await card.getByText('The preview of this call cannot be shown').waitFor();
    await expect(card.innerText()).resolves.toContain('approving stays off until you do');
    const approveOnce = card.getByRole('button', { name: /Approve once/ });
    expect(await approveOnce.isDisabled()).toBe(true);
    expect(await card.getByRole('button', { name: /For this session/ }).isDisabled()).toBe(true);
    // The other card is untouched: its diff is drawn.
    await page.locator('article.approval[data-call="fine-1"] .diff').getByText('still shown').waitFor();
    await tmpShot(page, 'approvals-preview-failed');
    // The key refuses too, saying why; the call still waits.
    await card.locator('header').click();
    await page.keyboard.press('y');
    await page.getByRole('alert').getByText('open its arguments before approving it').waitFor();
    expect((await agent.getCall('odd-1')).status).toBe('awaiting_approval');
    // Opening the arguments shows what runs, and lets the person approve.
    await card.locator('summary', { hasText: 'Arguments' }).click();
    await expect(card.locator('pre.json').innerText()).resolves.toContain('"colour": "teal"');
    await until(
      () => approveOnce.isDisabled(),
      (d) => !d,
      'Approve enabled once the arguments are open',
    );
    await tmpShot(page, 'approvals-preview-failed-opened');
    await approveOnce.click();
    expect((await odd).status).toBe('success');
    await page
      .locator('article.approval[data-call="fine-1"]')
      .getByRole('button', { name: /Approve once/ })
      .click();
    expect((await fine).status).toBe('success');
    expect(errors).toEqual([]);
  });
});
