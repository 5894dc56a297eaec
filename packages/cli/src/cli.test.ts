// The CLI as a user runs it: the built bin in a child process, in a real temp workspace.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { trustConfig, useIsolatedState } from './__fixtures__/trust.js';
import { main } from './main.js';
import { approvalsPath } from './state-paths.js';

const BIN = fileURLToPath(new URL('../bin/toolbelt.js', import.meta.url));
let root: string;
// Trusted configs and saved approvals go to a state directory of this file's own.
const state = useIsolatedState();

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'toolbelt-cli-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));
afterAll(() => rmSync(state, { recursive: true, force: true }));

function run(args: string[], opts: { input?: string } = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile(process.execPath, [BIN, ...args], { cwd: root, timeout: 20_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
    child.stdin?.end(opts.input ?? '');
  });
}

describe('toolbelt CLI', () => {
  it('prints help, and refuses an unknown command with exit 2', async () => {
    expect((await run(['--help'])).stdout).toContain('toolbelt <command>');
    const r = await run(['frobnicate']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('unknown command "frobnicate". Commands: tools, call,');
  });

  it('suggests the command or option a typo meant, in balanced quotes', async () => {
    const command = await run(['sevre']);
    expect(command.code).toBe(2);
    expect(command.stderr).toContain('toolbelt: unknown command "sevre". Did you mean "serve"? Commands: tools, call,');
    const option = await run(['call', 'read_file', '--jsno']);
    expect(option.code).toBe(2);
    expect(option.stderr).toContain(
      'toolbelt call: unknown option "--jsno". Did you mean "--json"? To pass a value that starts with "-", put it after "--": -- "--jsno".\nUsage: toolbelt call',
    );
    // Every quote in the message has its pair.
    const message = option.stderr.split('\n')[0];
    expect(message.split('"').length % 2).toBe(1);
    expect(message).not.toContain("'");
    const plain = await run(['tools', '--bogus']);
    expect(plain.stderr.split('\n')[0]).toBe('toolbelt tools: unknown option "--bogus".');
  });

  it('--version says which CLI runs: its version and where its package is', async () => {
    const r = await run(['--version']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      `toolbelt ${JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version} (${fileURLToPath(new URL('..', import.meta.url)).replace(/\/$/, '')})\n`,
    );
  });

  it('lists the tools with their effect, as text and JSON', async () => {
    const text = await run(['tools']);
    expect(text.stdout).toMatch(/^shell_exec\s+execute\*\s/m);
    expect(text.stdout).toMatch(/^read_file\s+read\*\s/m);
    expect(text.stdout).toMatch(/^git_status\s+read\s/m);
    expect(text.stdout).toContain("\n* the usual effect; each call's effect is judged from its input\n");
    // Every built-in declares its usual effect: none is listed as a bare per-call.
    expect(text.stdout).not.toContain('per-call');
    const json = JSON.parse((await run(['tools', '--json'])).stdout) as {
      name: string;
      effect: string;
      perCall: boolean;
      inputSchema: unknown;
    }[];
    expect(json.find((t) => t.name === 'shell_exec')).toMatchObject({
      effect: 'execute',
      perCall: true,
      inputSchema: { type: 'object' },
    });
    expect(json.find((t) => t.name === 'git_status')).toMatchObject({ effect: 'read', perCall: false });
    const openai = JSON.parse((await run(['tools', '--format', 'openai'])).stdout) as { type: string }[];
    expect(openai[0].type).toBe('function');
  });

  it('runs a read call and prints its result; --json prints the ToolResult', async () => {
    const plain = await run(['call', 'shell_exec', '{"command":"echo hello"}']);
    expect(plain.code).toBe(0);
    expect(plain.stdout).toContain('hello');
    const json = await run(['call', 'shell_exec', '{"command":"echo hello"}', '--json']);
    const result = JSON.parse(json.stdout);
    expect(result).toMatchObject({ status: 'success', tool: 'shell_exec', approvedBy: 'auto' });
  });

  it('without a terminal, a call that needs approval is rejected with exit 3 and not run', async () => {
    const r = await run(['call', 'shell_exec', '{"command":"touch made.txt"}', '--non-interactive']);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('approval was required');
    expect(existsSync(join(root, 'made.txt'))).toBe(false);
  });

  it('--yes approves, and the execution log records who approved', async () => {
    const r = await run(['call', 'shell_exec', '{"command":"touch made.txt"}', '--yes']);
    expect(r.code).toBe(0);
    expect(existsSync(join(root, 'made.txt'))).toBe(true);
    const log = readFileSync(join(root, '.toolbelt', 'executions.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(log.at(-1)).toMatchObject({
      tool: 'shell_exec',
      status: 'success',
      approvedBy: 'user',
      params: { command: 'touch made.txt' },
    });
  });

  it('--explain prints the effect and the deciding rule, and runs nothing', async () => {
    const r = await run(['call', 'shell_exec', '{"command":"rm -r build"}', '--explain']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('effect:   destructive');
    expect(r.stdout).toContain('decision: ask');
    expect(r.stdout).toContain('mode "safe"');
  });

  it('hard denies hold even with --yes and --mode yolo', async () => {
    const r = await run(['call', 'shell_exec', '{"command":"rm -rf /"}', '--yes', '--mode', 'yolo']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('PERMISSION_DENIED');
  });

  it('applies rules from toolbelt.config.json', async () => {
    writeFileSync(
      join(root, 'toolbelt.config.json'),
      JSON.stringify({
        rules: [
          { tool: 'shell_exec', command: 'touch', action: 'allow' },
          { tool: 'shell_exec', command: 'echo secret', action: 'deny', reason: 'no secrets' },
        ],
      }),
    );
    trustConfig(join(root, 'toolbelt.config.json'));
    expect((await run(['call', 'shell_exec', '{"command":"touch ok.txt"}', '--non-interactive'])).code).toBe(0);
    const denied = await run(['call', 'shell_exec', '{"command":"echo secret"}']);
    expect(denied.code).toBe(1);
    expect(denied.stderr).toContain('no secrets');
  });

  it('answers bad input with exit 2 and a message that says what to fix', async () => {
    const badJson = await run(['call', 'shell_exec', '{command:']);
    expect(badJson.code).toBe(2);
    expect(badJson.stderr).toContain('not valid JSON');
    const badMode = await run(['call', 'shell_exec', '{}', '--mode', 'fast']);
    expect(badMode.stderr).toContain('unknown mode "fast"');
    expect(badMode.code).toBe(2);
    writeFileSync(join(root, 'toolbelt.config.json'), JSON.stringify({ mode: 'safe', rulez: [] }));
    trustConfig(join(root, 'toolbelt.config.json'));
    const badConfig = await run(['tools']);
    expect(badConfig.code).toBe(2);
    expect(badConfig.stderr).toContain('rulez: unknown key; did you mean "rules"?');
    rmSync(join(root, 'toolbelt.config.json'));
    const unknownTool = await run(['call', 'shel_exec', '{}']);
    expect(unknownTool.code).toBe(1);
    expect(unknownTool.stderr).toContain('Did you mean "shell_exec"');
    const badParams = await run(['call', 'shell_exec', '{"command":5}']);
    expect(badParams.code).toBe(1);
    expect(badParams.stderr).toContain('`command` must be a string');
  });

  it('reads the input from stdin with "-"', async () => {
    const r = await run(['call', 'shell_exec', '-'], { input: '{"command":"echo from-stdin"}' });
    expect(r.stdout).toContain('from-stdin');
  });

  it('asks in the terminal, and "a" saves an approval later runs use', async () => {
    const stdin = new PassThrough();
    const stderr = new PassThrough();
    let prompt = '';
    stderr.on('data', (d) => (prompt += d));
    const stdout = new PassThrough();
    const pending = main(['call', 'shell_exec', '{"command":"touch a.txt"}', '--root', root], {
      stdin,
      stdout,
      stderr,
      interactive: true,
    });
    stdin.write('a\n');
    expect(await pending).toBe(0);
    expect(prompt).toContain('Tool approval: shell_exec');
    expect(prompt).toContain('$ touch a.txt');
    // Saved outside the workspace, where the agent's tools cannot write.
    expect(existsSync(join(root, '.toolbelt', 'approvals.json'))).toBe(false);
    const saved = JSON.parse(readFileSync(approvalsPath(root), 'utf8'));
    expect(saved[0]).toMatchObject({ scope: 'always', target: { tool: 'shell_exec' } });
    // A later, non-interactive run of the same command is allowed by the saved approval.
    const again = await run(['call', 'shell_exec', '{"command":"touch a.txt"}', '--non-interactive', '--json']);
    expect(JSON.parse(again.stdout).approvedBy).toBe('remembered');
  });

  it('init writes a config that the CLI then accepts, and will not overwrite it', async () => {
    expect((await run(['init'])).code).toBe(0);
    expect((await run(['tools'])).code).toBe(0);
    const again = await run(['init']);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('--force');
  });

  it('init keeps .toolbelt/ (the execution log) out of git, once, without touching other ignore lines', async () => {
    writeFileSync(join(root, '.gitignore'), 'node_modules/');
    const first = await run(['init']);
    expect(first.stdout).toContain('added .toolbelt/');
    expect(readFileSync(join(root, '.gitignore'), 'utf8')).toBe(
      "node_modules/\n# toolbelt's execution log\n.toolbelt/\n",
    );
    expect((await run(['init', '--force'])).stdout).not.toContain('added .toolbelt/');
    expect(readFileSync(join(root, '.gitignore'), 'utf8').match(/\.toolbelt\//g)).toHaveLength(1);
  });
});
