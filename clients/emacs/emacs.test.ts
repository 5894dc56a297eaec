// toolbelt.el in a real Emacs (`emacs --batch`) against a real `toolbelt serve` on an ephemeral port
// with a token, a temporary workspace and the MCP fixture server proxied: the ERT suite
// (toolbelt-test.el) answers approvals and tools' questions, follows the event stream and
// reconnects; and the file byte-compiles without warnings, is checkdoc clean and carries the
// headers package-install-file reads. Without Emacs these tests skip, saying so; with
// TOOLBELT_REQUIRE_EMACS=1 (CI) they fail instead.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { displayText, escapeChar, ESCAPED_RANGES } from '@toolbelt/core/approval';

const here = fileURLToPath(new URL('.', import.meta.url));
const repo = join(here, '../..');
const bin = join(repo, 'packages/cli/bin/toolbelt.js');
// A real MCP server whose tool ask_user asks a person a question mid-call (an elicitation).
const fixtureServer = join(repo, 'packages/mcp/src/__fixtures__/fixture-server.mjs');
const TOKEN = 'emacs-test-token-0123456789';

const probe = spawnSync('emacs', ['--version'], { encoding: 'utf8' });
const hasEmacs = probe.status === 0;
if (!hasEmacs && process.env.TOOLBELT_REQUIRE_EMACS === '1') {
  throw new Error(
    `TOOLBELT_REQUIRE_EMACS=1 but emacs does not run here (${probe.error?.message ?? probe.stderr}); install Debian's emacs-nox`,
  );
}
if (!hasEmacs)
  console.warn(
    'toolbelt.el tests skipped: no emacs on PATH (install emacs-nox, or set TOOLBELT_REQUIRE_EMACS=1 to make this an error)',
  );

/** Runs emacs --batch with ARGS in DIR; resolves with its exit code and everything it printed. */
function emacs(
  args: string[],
  dir: string,
  env: Record<string, string> = {},
): Promise<{ code: number | null; out: string }> {
  const child = spawn('emacs', ['--batch', '--no-site-file', ...args], {
    cwd: dir,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, out })));
}

describe.skipIf(!hasEmacs)('toolbelt.el', () => {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'tb-emacs-ws-')));
  const state = mkdtempSync(join(tmpdir(), 'tb-emacs-state-'));
  let gateway: ChildProcess | undefined;
  let url = '';

  beforeAll(async () => {
    // The CLI runs from dist: bring it up to date with its sources (a no-op after npm run build).
    spawnSync(process.execPath, [join(repo, 'node_modules/typescript/bin/tsc'), '-b', 'packages/cli'], { cwd: repo });
    // The gateway proxies it as fx__ask_user; the question waits on the call for Emacs to answer.
    const config = { mcpServers: { fx: { command: process.execPath, args: [fixtureServer] } } };
    writeFileSync(join(root, 'toolbelt.config.json'), JSON.stringify(config));
    const env = {
      ...process.env,
      TOOLBELT_GATEWAY_TOKEN: TOKEN,
      TOOLBELT_GATEWAY_TOKEN_FILE: '',
      XDG_STATE_HOME: state,
    };
    // A config in the workspace takes effect once trusted, as a user does after writing it.
    const trusted = spawnSync(process.execPath, [bin, 'trust', '--root', root], { env, encoding: 'utf8' });
    if (trusted.status !== 0) throw new Error(`toolbelt trust failed: ${trusted.stderr}`);
    gateway = spawn(process.execPath, [bin, 'serve', '--root', root, '--port', '0'], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    url = await new Promise<string>((resolve, reject) => {
      let out = '';
      gateway!.stdout!.on('data', (d) => {
        out += d;
        const m = /listening on (http:\/\/\S+)/.exec(out);
        if (m) resolve(m[1]);
      });
      gateway!.stderr!.on('data', (d) => (out += d));
      gateway!.on('exit', (code) => reject(new Error(`toolbelt serve exited with ${code}: ${out}`)));
    });
  }, 120_000);
  afterAll(() => {
    gateway?.kill('SIGKILL');
    rmSync(root, { recursive: true, force: true });
    rmSync(state, { recursive: true, force: true });
  }, 60_000);

  it('passes its ERT suite against a real toolbelt serve: approvals (destructive ones confirmed), questions, file.changed, reconnecting', async () => {
    const run = await emacs(
      ['-L', '.', '-l', 'ert', '-l', 'toolbelt.el', '-l', 'toolbelt-test.el', '-f', 'ert-run-tests-batch-and-exit'],
      here,
      {
        TOOLBELT_TEST_URL: url,
        TOOLBELT_TEST_TOKEN: TOKEN,
        TOOLBELT_TEST_ROOT: root,
        TOOLBELT_GATEWAY_TOKEN: '',
      },
    );
    const summary = /Ran (\d+) tests, (\d+) results as expected, (\d+) unexpected/.exec(run.out);
    expect(summary, run.out).not.toBeNull();
    expect({ code: run.code, unexpected: Number(summary![3]) }, run.out).toEqual({ code: 0, unexpected: 0 });
    expect(Number(summary![1])).toBeGreaterThanOrEqual(23);
  }, 120_000);

  it('byte-compiles without warnings, is checkdoc clean and reads as a package', async () => {
    // A copy, so the .elc stays out of the repository.
    const dir = mkdtempSync(join(tmpdir(), 'tb-emacs-compile-'));
    try {
      copyFileSync(join(here, 'toolbelt.el'), join(dir, 'toolbelt.el'));
      const script = `(progn
        (setq byte-compile-error-on-warn t)
        (unless (byte-compile-file "toolbelt.el") (kill-emacs 1))
        (require 'checkdoc)
        (checkdoc-file "toolbelt.el")
        (require 'package)
        (with-temp-buffer
          (insert-file-contents "toolbelt.el")
          (let ((desc (package-buffer-info)))
            (princ (format "package %s %s\\n" (package-desc-name desc) (package-version-join (package-desc-version desc)))))))`;
      const run = await emacs(['--eval', script], dir);
      expect(run.code, run.out).toBe(0);
      // Byte-compiler and checkdoc complaints both start with the file name and a line.
      expect(run.out).not.toMatch(/toolbelt\.el:\d+/);
      expect(run.out).toMatch(/^package toolbelt \d+\.\d+\.\d+$/m);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('shows text escaped exactly as the terminal and the console do (toolbelt--visible and displayText agree)', async () => {
    // Every character to U+3100 but newline, and each escaped range's ends and neighbours above
    // it (no surrogates: not UTF-8), one a line.
    const points = new Set<number>();
    for (let cp = 0; cp < 0x3100; cp++) points.add(cp);
    for (const [a, b] of ESCAPED_RANGES) for (const cp of [a - 1, a, b, b + 1]) points.add(cp);
    const chars = [...points]
      .filter((cp) => cp >= 0 && cp !== 0x0a && (cp < 0xd800 || cp > 0xdfff))
      .map((cp) => String.fromCodePoint(cp));
    const dir = mkdtempSync(join(tmpdir(), 'tb-emacs-visible-'));
    try {
      writeFileSync(join(dir, 'in.txt'), chars.join('\n'));
      const script = `(let ((coding-system-for-read 'utf-8-unix) (coding-system-for-write 'utf-8-unix))
        (write-region (toolbelt--visible (with-temp-buffer (insert-file-contents "in.txt") (buffer-string))) nil "out.txt"))`;
      const run = await emacs(['-L', here, '-l', 'toolbelt.el', '--eval', script], dir);
      expect(run.code, run.out).toBe(0);
      const shown = readFileSync(join(dir, 'out.txt'), 'utf8').split('\n');
      expect(shown).toHaveLength(chars.length);
      const differ = chars.flatMap((c, i) => (shown[i] === displayText(c) ? [] : [`${escapeChar(c)}: ${shown[i]}`]));
      expect(differ.slice(0, 20)).toEqual([]);
      // And both escaped something: ESC, a bidi override, a tag character.
      expect([shown[chars.indexOf('\x1b')], displayText('\u202e'), displayText('\u{e0041}')]).toEqual([
        '\\e',
        '<U+202E>',
        '<U+E0041>',
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
