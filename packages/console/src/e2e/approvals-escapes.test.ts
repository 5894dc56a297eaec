// What a person approves in the console is what runs: headless Chromium over a real gateway, with
// calls whose command, file name and diff hold a bidi override, ANSI escapes and a carriage
// return. The approval card shows them escaped (<U+202E>, \e[8m, \r), never the raw characters;
// the call that runs is the raw one.
import { existsSync, mkdtempSync, readdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Locator } from 'playwright-core';
import { fsTools, shellTools, WorkspaceGuard } from '@toolbelt/tools';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type Harness } from '../../../gateway/src/__fixtures__/harness.js';
import { findChromium, launch, openPage, shot, signIn } from './browser.js';

const ADMIN = 'admin-token-0123456789abcdef';
const chromiumPath = findChromium();
const required = process.env.TOOLBELT_REQUIRE_BROWSER === '1';
// What must never reach the page as such: the payload's controls, bidi and zero-width characters.
const RAW = /[\r\x1b\x07\b\u202e\u2066-\u2069\u200b]/;

/** The card's text as the page renders it (innerText: what a person reads), with the raw characters it holds. */
async function readCard(card: Locator): Promise<{ text: string; raw: string[] }> {
  const text = await card.evaluate((e) => (e as HTMLElement).innerText);
  return { text, raw: [...text].filter((c) => RAW.test(c)).map((c) => `U+${c.codePointAt(0)!.toString(16)}`) };
}

describe.skipIf(!chromiumPath && !required)('the console shows escaped what a call would hide', () => {
  let h: Harness;
  let ws: string;
  let browser: Browser;

  beforeAll(async () => {
    if (!chromiumPath)
      throw new Error('TOOLBELT_REQUIRE_BROWSER=1 but chromium is not installed: apt-get install chromium');
    ws = realpathSync(mkdtempSync(join(tmpdir(), 'tb-console-esc-')));
    h = await startGateway({
      config: { gateway: { tokens: [{ name: 'ops', token: ADMIN, roles: ['admin'] }] } },
      dir: ws,
      db: join(ws, '.toolbelt', 'gateway.db'),
      workspace: new WorkspaceGuard({ roots: [ws] }),
      tools: [...fsTools(), ...shellTools()],
    });
    browser = await launch(chromiumPath);
  });
  afterAll(async () => {
    await browser?.close();
    await h?.cleanup();
    if (ws) rmSync(ws, { recursive: true, force: true });
  }, 60_000);

  it('a command with \\u202e and \\x1b[8m: the card shows <U+202E> and \\e[8m; approved, the raw command runs', async () => {
    writeFileSync(join(ws, 'victim.txt'), 'x');
    const command = `rm -f victim.txt #\r\x1b[2K\x1b[8m\u202e\u2066echo hello\u2069`;
    // The control: the call itself holds the raw characters, so a card without escaping would show them.
    expect(command).toMatch(RAW);
    const { page, errors } = await openPage(browser);
    await signIn(page, errors, h.url, ADMIN);
    const call = h
      .client({ token: ADMIN, agentId: 'coder' })
      .call('run-1', 'shell_exec', { command }, { context: `tidy\u202eing up` });
    const card = page.locator('article.approval', { hasText: 'shell_exec' });
    await card.locator('.command').waitFor();
    const { text, raw } = await readCard(card);
    expect(raw).toEqual([]);
    const shown = 'rm -f victim.txt #\\r\\e[2K\\e[8m<U+202E><U+2066>echo hello<U+2069>';
    await expect(card.locator('.command pre code').innerText()).resolves.toBe(`$ ${shown}`);
    expect(text).toContain('Context: tidy<U+202E>ing up');
    expect(text).toContain(`Always allows exactly \`${shown}\`.`);
    expect(text).toContain('This call holds control, bidi or invisible characters');
    // The arguments, as JSON: the bidi characters escaped too (JSON itself escapes \r and ESC).
    expect(await card.locator('pre.json').textContent()).toContain(
      '\\r\\u001b[2K\\u001b[8m<U+202E><U+2066>echo hello<U+2069>',
    );
    await shot(page, 'approval-escapes-command');
    await page.keyboard.press('y');
    await card.getByRole('button', { name: 'Yes, run it' }).click();
    const result = await call;
    expect(result.status, JSON.stringify(result)).toBe('success');
    expect(existsSync(join(ws, 'victim.txt'))).toBe(false);
    expect(errors).toEqual([]);
  });

  it('a file name and diff lines with those characters: escaped line by line in the diff viewer', async () => {
    const path = `notes\u202etxt.sh`;
    const content = `first line\r\x1b[2Ksecond \u2067line\u2069\nthird\u200b\n`;
    expect(path + content).toMatch(RAW);
    const { page, errors } = await openPage(browser);
    await signIn(page, errors, h.url, ADMIN);
    const call = h.client({ token: ADMIN, agentId: 'coder' }).call('run-2', 'write_file', { path, content });
    const card = page.locator('article.approval', { hasText: 'write_file' });
    await card.locator('.d2h-wrapper').waitFor();
    const { text, raw } = await readCard(card);
    expect(raw).toEqual([]);
    await expect(card.locator('p.path').innerText()).resolves.toBe('changes notes<U+202E>txt.sh');
    const diff = await card.locator('.d2h-wrapper').innerText();
    // One diff line, not two: the carriage return did not split it, nor hide its start.
    expect(diff).toMatch(/first line\\r\\e\[2Ksecond <U\+2067>line<U\+2069>/);
    expect(diff).toContain('third<U+200B>');
    expect(text).toContain('changes notes<U+202E>txt.sh');
    expect(await card.locator('pre.json').textContent()).toContain('"path": "notes<U+202E>txt.sh"');
    await shot(page, 'approval-escapes-diff');
    await page.keyboard.press('y');
    expect((await call).status).toBe('success');
    // What was written is the raw text, under the raw name.
    expect(readdirSync(ws)).toContain(path);
    expect(errors).toEqual([]);
  });
});
