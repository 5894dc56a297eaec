// What a person approves in the terminal is what runs: a call's control, bidi and invisible
// characters (a carriage return that returns to the line start, ANSI escapes that clear or conceal
// a line, an OSC link, a bidi override) reach the terminal escaped, never raw. A real executor
// asks the real prompt about a real shell command and a real file write; the command that runs is
// the original, raw one.
import { existsSync, mkdtempSync, readdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { Executor, Policy, ToolRegistry } from '@toolbelt/core';
import { fsTools, shellTools, WorkspaceGuard } from '@toolbelt/tools';
import { afterEach, describe, expect, it } from 'vitest';
import { terminalApprover } from './approver.js';
import { terminalElicitor } from './elicitor.js';
import { TerminalPrompt } from './prompt.js';

// The payload: returns to the line start, clears it, moves up, conceals, opens an OSC 8 link,
// sets the title, backspaces, and turns the rest right-to-left.
const HIDDEN = '\r\x1b[2K\x1b[1A\x1b[8m\x1b]8;;https://x.invalid\x07\x1b]0;title\x07\b\b\u202e\u2066\u200b';
const RAW = /[\r\x1b\x07\b\u202e\u2066\u200b]/;
// toolbelt's own styling, in colour: bold and reverse video, nothing else.
const OWN_STYLES = /\x1b\[(1|0|7|27)m/g;

let cleanup: (() => void) | undefined;
afterEach(() => {
  cleanup?.();
  cleanup = undefined;
});

function setup(color: boolean) {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'tb-escapes-')));
  const input = new PassThrough();
  const output = new PassThrough();
  let shown = '';
  output.on('data', (d: Buffer) => (shown += d.toString('utf8')));
  const approver = terminalApprover(input, output, { color });
  const executor = new Executor({
    registry: new ToolRegistry().registerAll([...shellTools(), ...fsTools()]),
    workspace: new WorkspaceGuard({ roots: [dir] }),
    policy: new Policy({ mode: 'safe' }),
    approver,
  });
  cleanup = () => {
    approver.close();
    void executor.close();
    rmSync(dir, { recursive: true, force: true });
  };
  return { dir, input, executor, shown: () => shown };
}

/** Answers each line once the prompt asks (`Approve?` or the destructive confirmation). */
function answer(input: PassThrough, lines: string[]) {
  for (const line of lines) input.write(`${line}\n`);
}

describe.each([false, true])('terminal approval with colour %s', (color) => {
  it('shows a command with a carriage return, ANSI/OSC escapes and bidi overrides escaped; the raw command runs', async () => {
    const { dir, input, executor, shown } = setup(color);
    writeFileSync(join(dir, 'victim.txt'), 'x');
    const command = `rm -f victim.txt #${HIDDEN}echo hello`;
    // The control: the payload itself holds the raw bytes, so without escaping they would reach the terminal.
    expect(command).toMatch(RAW);
    answer(input, ['y', 'yes']);
    const result = await executor.call({
      tool: 'shell_exec',
      input: { command },
      sessionId: 's',
      context: `cleaning up${HIDDEN}`,
    });
    expect(result.status).toBe('success');
    expect(existsSync(join(dir, 'victim.txt'))).toBe(false);
    const out = shown().replace(OWN_STYLES, '');
    // Without colour, toolbelt writes no escape of its own; in colour, only its bold and reverse video.
    if (!color) expect(shown()).toBe(out);
    expect(out).not.toMatch(RAW);
    const escaped =
      'rm -f victim.txt #\\r\\e[2K\\e[1A\\e[8m\\e]8;;https://x.invalid\\a\\e]0;title\\a\\b\\b<U+202E><U+2066><U+200B>echo hello';
    expect(out).toContain(`$ ${escaped}`);
    // (The executor already turns the context's line breaks into spaces.)
    expect(out).toMatch(/Context: cleaning up.?\\e\[2K\\e\[1A/);
    expect(out).toContain('This call holds control, bidi or invisible characters');
    // The destructive warning and the confirmation name the command escaped too.
    expect(out).toContain('This call is destructive: ');
    expect(out.match(/Type "yes"/g)).toHaveLength(1);
  });

  it('shows a file name and a diff with those characters escaped, line by line', async () => {
    const { dir, input, executor, shown } = setup(color);
    const path = `notes\u202etxt.sh\x1b[8m`;
    const content = `first line\r\x1b[2Ksecond \u2067line\u2069\nthird\n`;
    expect(path + content).toMatch(RAW);
    answer(input, ['y']);
    const result = await executor.call({ tool: 'write_file', input: { path, content }, sessionId: 's' });
    expect(result.status, JSON.stringify(result)).toBe('success');
    // What was written is the raw text, under the raw name.
    expect(readdirSync(dir)).toContain(path);
    const out = shown().replace(OWN_STYLES, '');
    expect(out).not.toMatch(/[\r\x1b\u202e\u2067\u2069]/);
    expect(out).toContain('notes<U+202E>txt.sh\\e[8m');
    expect(out).toContain('+first line\\r\\e[2Ksecond <U+2067>line<U+2069>\n+third');
  });
});

describe('a tool question in the terminal', () => {
  it("shows the server's message and field labels escaped", async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    let shown = '';
    output.on('data', (d: Buffer) => (shown += d.toString('utf8')));
    const prompt = new TerminalPrompt(input, output);
    const ask = terminalElicitor(prompt);
    input.write('y\nAda\n');
    const answer = await ask(
      {
        callId: 'c1',
        sessionId: 's1',
        source: 'fx\x1b]0;pwned\x07',
        tool: 'fx__ask',
        message: `Your name?\r\x1b[2KYour password?\u202e`,
        schema: {
          type: 'object',
          properties: { name: { type: 'string', title: `Name\x1b[8m`, description: 'who\u2066' } },
        },
      },
      new AbortController().signal,
    );
    prompt.close();
    expect(answer).toEqual({ action: 'accept', content: { name: 'Ada' } });
    expect(shown).not.toMatch(RAW);
    expect(shown).toContain('fx\\e]0;pwned\\a asks (during fx__ask):\nYour name?\\r\\e[2KYour password?<U+202E>');
    expect(shown).toContain('Name\\e[8m — who<U+2066> (string): ');
  });
});
