// The console in a real browser: headless Chromium over a real gateway on 127.0.0.1, with the
// built-in file tools in a temp workspace. Screenshots of each view go to test-results/console/.
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { McpManager } from '@toolbelt/mcp';
import { builtinTools, WorkspaceGuard } from '@toolbelt/tools';
import type { GatewayConfig } from '@toolbelt/gateway/config';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { echoTool, startGateway, until, type Harness } from '../../../gateway/src/__fixtures__/harness.js';
import { fixture } from '../../../mcp/src/__fixtures__/servers.js';
import { findChromium, launch, openPage, overflowsSideways, shot, signIn, SHOTS, tabTo } from './browser.js';

const ADMIN = 'admin-token-0123456789abcdef';
const HUSAM = 'husam-token-0123456789abcdef';
const chromiumPath = findChromium();
const required = process.env.TOOLBELT_REQUIRE_BROWSER === '1';
if (!chromiumPath && !required)
  console.warn('console browser tests skipped: chromium is not installed (apt-get install chromium)');

const config: GatewayConfig = {
  gateway: {
    tokens: [
      { name: 'ops', token: ADMIN, roles: ['admin'] },
      { name: 'husam', token: HUSAM, roles: ['person', 'approve', 'events'] },
    ],
  },
  tools: [
    {
      name: 'confirmAction',
      description: 'Ask the user to confirm an action',
      inputSchema: { type: 'object', properties: { question: { type: 'string' } }, required: ['question'] },
      executionType: 'space',
      isAsync: true,
    },
    {
      name: 'displayChart',
      description: 'Show a chart',
      inputSchema: { type: 'object' },
      executionType: 'internal',
      visible: true,
    },
  ],
};

describe.skipIf(!chromiumPath && !required)('the console in a browser', () => {
  let h: Harness;
  let ws: string;
  let browser: Browser;

  beforeAll(async () => {
    if (!chromiumPath)
      throw new Error('TOOLBELT_REQUIRE_BROWSER=1 but chromium is not installed: apt-get install chromium');
    ws = realpathSync(mkdtempSync(join(tmpdir(), 'tb-console-')));
    const workspace = new WorkspaceGuard({ roots: [ws] });
    h = await startGateway({
      config,
      dir: ws,
      db: join(ws, '.toolbelt', 'gateway.db'),
      workspace,
      tools: [echoTool, ...builtinTools().filter((t) => !t.name.startsWith('shell_'))],
    });
    browser = await launch(chromiumPath);
  });
  afterAll(async () => {
    await browser?.close();
    await h?.cleanup();
    if (ws) rmSync(ws, { recursive: true, force: true });
  }, 60_000);

  const agent = (agentId = 'coder') => h.client({ token: ADMIN, agentId });

  it('shows an edit with its diff; y approves it and the file changes', async () => {
    writeFileSync(join(ws, 'notes.ts'), 'export const greeting = "hello";\nexport const n = 1;\n');
    const { page, errors } = await openPage(browser);
    await signIn(page, errors, h.url, ADMIN);
    const call = agent().call(
      'run-1',
      'edit_file',
      { path: 'notes.ts', old_string: '"hello"', new_string: '"hello, world"' },
      { context: 'Greeting the whole world' },
    );
    const card = page.locator('article.approval', { hasText: 'edit_file' });
    await card.waitFor();
    await card.locator('.d2h-wrapper').waitFor();
    await expect(card.textContent()).resolves.toContain('hello, world');
    await expect(card.textContent()).resolves.toContain('coder');
    await expect(card.locator('.context').textContent()).resolves.toBe('Context: Greeting the whole world');
    await shot(page, 'approvals');
    await page.keyboard.press('y');
    const result = await call;
    expect(result.status).toBe('success');
    expect(readFileSync(join(ws, 'notes.ts'), 'utf8')).toContain('"hello, world"');
    await card.waitFor({ state: 'detached' });
    expect(errors).toEqual([]);
  });

  it("n asks for a message; the rejection's message reaches the calling agent", async () => {
    const { page, errors } = await openPage(browser);
    await signIn(page, errors, h.url, ADMIN);
    const call = agent().call('run-2', 'write_file', { path: 'secret-plan.md', content: 'world domination\n' });
    await page.locator('article.approval', { hasText: 'write_file' }).waitFor();
    await page.keyboard.press('n');
    await page.getByLabel(/Message for the model/).waitFor();
    await until(
      () => page.evaluate(() => document.activeElement?.tagName),
      (t) => t === 'TEXTAREA',
      'the message box focused',
    );
    await page.keyboard.type('Write it under docs/ instead');
    await page.keyboard.press('Enter');
    const result = await call;
    expect(result.status).toBe('rejected');
    expect(result.rejection?.userMessage).toBe('Write it under docs/ instead');
    expect(JSON.stringify(result.content)).toContain('Write it under docs/ instead');
    expect(errors).toEqual([]);
  });

  it('a destructive call says so and asks once more: Escape goes back, Enter on "Yes, run it" runs it', async () => {
    writeFileSync(join(ws, 'old-notes.md'), 'keep?\n');
    const { page, errors } = await openPage(browser);
    await signIn(page, errors, h.url, ADMIN);
    const call = agent().call('run-d', 'delete_file', { path: 'old-notes.md' });
    const card = page.locator('article.approval', { hasText: 'delete_file' });
    await card.locator('.warning.destructive').getByText('This delete_file call is destructive').waitFor();
    await page.keyboard.press('y');
    const confirm = card.getByRole('group', { name: 'Confirm a destructive call' });
    await confirm.waitFor();
    await until(
      () => page.evaluate(() => document.activeElement?.textContent),
      (t) => t === 'Yes, run it',
      'the confirmation focused',
    );
    await shot(page, 'approvals-destructive');
    await page.keyboard.press('Escape');
    await confirm.waitFor({ state: 'detached' });
    expect(existsSync(join(ws, 'old-notes.md'))).toBe(true);
    await page.keyboard.press('y');
    await confirm.waitFor();
    await until(
      () => page.evaluate(() => document.activeElement?.textContent),
      (t) => t === 'Yes, run it',
      'the confirmation focused again',
    );
    await page.keyboard.press('Enter');
    expect((await call).status).toBe('success');
    expect(existsSync(join(ws, 'old-notes.md'))).toBe(false);
    await card.waitFor({ state: 'detached' });
    expect(errors).toEqual([]);
  });

  it("a confirmation in a space answers the agent's pending call; a chart and people's messages show", async () => {
    const admin = agent();
    await admin.createSpace('Travel', 'travel');
    await admin.addMember('travel', 'husam', 'person');
    await admin.addMember('travel', 'planner', 'agent');
    const planner = agent('planner');
    await planner.call('run-3', 'enter_space', { spaceId: 'travel' });
    const { page, errors } = await openPage(browser);
    await signIn(page, errors, h.url, HUSAM, '#/spaces/travel');
    await planner.call('run-3', 'displayChart', {
      type: 'bar',
      title: 'Hotel prices',
      data: [
        { label: 'Shinjuku', value: 180 },
        { label: 'Ginza', value: 240 },
      ],
    });
    const pending = await planner.call('run-3', 'confirmAction', { question: 'Book the Shinjuku hotel for 3 nights?' });
    expect(pending.status).toBe('pending');
    await page.locator('.chart-call canvas').waitFor();
    const confirm = page.locator('.tool-call[data-tool="confirmAction"]');
    await confirm.getByText('Book the Shinjuku hotel for 3 nights?').waitFor();
    await page.getByLabel('Message').fill('Cheaper is fine too');
    await page.keyboard.press('Enter');
    await page.locator('.msg.mine', { hasText: 'Cheaper is fine too' }).waitFor();
    await shot(page, 'space');
    await confirm.getByRole('button', { name: 'Confirm' }).click();
    await confirm.getByText('✓ Confirmed').waitFor();
    const inbox = await until(
      () => planner.inbox('planner'),
      (m) => m.some((x) => x.kind === 'tool_result'),
      'the answer in the inbox',
    );
    expect(inbox.find((x) => x.kind === 'tool_result')).toMatchObject({
      tool: 'confirmAction',
      result: { confirmed: true },
    });
    expect(inbox.some((x) => x.kind === 'message' && x.message.text === 'Cheaper is fine too')).toBe(true);
    expect(errors).toEqual([]);
  });

  it('the activity view lists the calls, opens a record, and draws the metrics', async () => {
    const { page, errors } = await openPage(browser);
    await signIn(page, errors, h.url, ADMIN, '#/activity');
    await page.locator('.log-list .row', { hasText: 'edit_file' }).first().click();
    await page.locator('article.detail').getByText('notes.ts').first().waitFor();
    expect(await page.locator('.log-list .row', { hasText: 'write_file' }).count()).toBeGreaterThan(0);
    await page.locator('.metrics canvas').first().waitFor();
    await page.getByLabel('Status').selectOption('rejected');
    await until(
      () => page.locator('.log-list .row').count(),
      (n) => n === 1,
      'the rejected call alone',
    );
    await shot(page, 'activity');
    expect(errors).toEqual([]);
  });

  it('a form in "try it" runs a tool through the gateway', async () => {
    const { page, errors } = await openPage(browser);
    await signIn(page, errors, h.url, ADMIN, '#/tools');
    await page.getByRole('button', { name: /^echo/ }).click();
    await page.getByLabel('text').fill('hello from the console');
    await page.getByRole('button', { name: 'Run echo' }).click();
    await page.locator('.result').getByText('echo: hello from the console').waitFor();
    const log = (await h.store.listExecutions({ tool: 'echo', limit: 10 })).entries;
    expect(log.some((e) => e.agentId === 'console')).toBe(true);
    await shot(page, 'tools');
    expect(errors).toEqual([]);
  });

  it('works by keyboard alone: to Tools, pick a tool, fill its form, run it', async () => {
    const { page, errors } = await openPage(browser);
    await signIn(page, errors, h.url, ADMIN);
    await tabTo(page, 'nav a[href="#/tools"]');
    await page.keyboard.press('Enter');
    await tabTo(page, '#tool-filter');
    await page.keyboard.type('echo');
    await tabTo(page, 'button.tool-item');
    await page.keyboard.press('Enter');
    await tabTo(page, '#try-echo-text');
    await page.keyboard.type('typed, not clicked');
    await tabTo(page, 'button[type="submit"]');
    await page.keyboard.press('Enter');
    await page.locator('.result').getByText('echo: typed, not clicked').waitFor();
    expect(errors).toEqual([]);
  });

  it("a tool's question shows as a form; the person's answer reaches the MCP server that asked", async () => {
    const manager = new McpManager({ servers: { fx: fixture() }, registry: h.registry });
    await manager.start();
    try {
      const { page, errors } = await openPage(browser);
      await signIn(page, errors, h.url, ADMIN);
      const admin = agent();
      const call = admin.call('run-q', 'fx__ask_user', {}, { callId: 'ask-1' });
      // The proxied tool may first need an approval (its server says nothing of its effect).
      const waiting = await until(
        () => admin.getCall('ask-1').catch(() => undefined),
        (c) => c?.status === 'awaiting_approval' || c?.status === 'awaiting_input',
        'the call to wait for a person',
      );
      if (waiting?.status === 'awaiting_approval') await admin.approve('ask-1');
      const card = page.locator('article.question', { hasText: 'Which name?' });
      await card.waitFor();
      await expect(card.textContent()).resolves.toContain('MCP server "fx"');
      await card.getByLabel('Name').fill('Grace');
      await shot(page, 'question');
      await card.getByRole('button', { name: 'Send answer' }).click();
      const result = await call;
      expect(JSON.parse((result.content[0] as { text: string }).text)).toEqual({
        action: 'accept',
        content: { name: 'Grace', count: 3, color: 'green' },
      });
      await card.waitFor({ state: 'detached' });
      expect(errors).toEqual([]);
    } finally {
      await manager.close();
    }
  });

  it('fits a phone: no sideways scroll, every view usable', async () => {
    const { page, errors } = await openPage(browser, { width: 390, height: 844 });
    await signIn(page, errors, h.url, ADMIN);
    for (const view of ['approvals', 'spaces/travel', 'activity', 'tools']) {
      await page.goto(`${h.url}/#/${view}`);
      await page.locator('main > section').waitFor();
      await page.waitForTimeout(300);
      expect(await overflowsSideways(page), `${view} scrolls sideways`).toEqual([]);
      await shot(page, `phone-${view.replace('/', '-')}`);
    }
    expect(errors).toEqual([]);
  });

  it('opens the activity view with 10,000 calls in the log (timed, reported)', async () => {
    for (let i = 0; i < 10_000; i++)
      await h.gw.executor.call({ tool: 'echo', input: { text: `n${i}` }, agentId: `bulk-${i % 7}`, origin: 'http' });
    await h.gw.executor.logs.flush();
    await until(
      () => h.store.listExecutions({ tool: 'echo', limit: 1000 }),
      (l) => l.entries.length === 1000,
      'the log written',
    );
    const { page, errors } = await openPage(browser);
    await signIn(page, errors, h.url, ADMIN);
    // A fresh load (the token stays in the tab's session storage): the clock starts at navigation.
    await page.goto(`${h.url}/?fresh#/activity`);
    await page.locator('.log-list .row').first().waitFor();
    const ms = Number(await page.evaluate(() => document.body.dataset.activityLoadedMs));
    const rows = await page.locator('.log-list .row').count();
    const report = {
      callsInLog: 10_000 + 5,
      shownEntries: await page.locator('.activity .log-status').textContent(),
      openedInMs: ms,
      renderedRows: rows,
    };
    writeFileSync(join(SHOTS, 'activity-timing.json'), JSON.stringify(report, null, 2));
    console.log(`activity view with 10,000 calls in the log: opened in ${ms} ms (${rows} rows rendered)`);
    await shot(page, 'activity-10000');
    expect(rows).toBeGreaterThan(0);

    // Older pages on request; while they are open, new calls are counted rather than shuffling the list.
    const status = page.locator('.activity .log-status');
    await page.getByRole('button', { name: 'Load 1000 older calls' }).click();
    await status.getByText('2000 calls').waitFor();
    await agent().call('run-new', 'echo', { text: 'fresh' });
    await status.getByRole('button', { name: '1 new — show the newest' }).click();
    await status.getByText('1000 calls').waitFor();
    await page.locator('.log-list .row', { hasText: 'echo' }).first().click();
    await page.locator('article.detail').getByText('fresh').first().waitFor();
    expect(errors).toEqual([]);
  });
});
