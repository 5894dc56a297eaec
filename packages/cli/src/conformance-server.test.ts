// `toolbelt mcp --http` under the official MCP conformance suite: the server scenarios that do not
// need the suite's own fixture tools, resources and prompts (test_simple_text, test://static-text,
// ...) all pass. Runs the built CLI: build first.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canRun, conformance } from '../../mcp/src/__fixtures__/conformance/run.js';

const BIN = fileURLToPath(new URL('../bin/toolbelt.js', import.meta.url));
const built = existsSync(fileURLToPath(new URL('../dist', import.meta.url)));
const root = mkdtempSync(join(tmpdir(), 'tb-conformance-server-'));
const state = mkdtempSync(join(tmpdir(), 'tb-conformance-state-'));
let server: ChildProcess;
let url: string;

const SCENARIOS = [
  'server-initialize',
  'logging-set-level',
  'ping',
  'tools-list',
  'tools-call-error',
  'server-sse-multiple-streams',
  'resources-list',
  'prompts-list',
  'dns-rebinding-protection',
];

describe.runIf(canRun && built)('MCP conformance suite: toolbelt mcp --http', () => {
  beforeAll(async () => {
    writeFileSync(join(root, 'hello.txt'), 'hello\n');
    server = spawn(process.execPath, [BIN, 'mcp', '--root', root, '--http', '0'], {
      env: { ...process.env, XDG_STATE_HOME: state },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    url = await new Promise<string>((resolve, reject) => {
      let err = '';
      server.stderr!.on('data', (d) => {
        err += d;
        const found = /at (http:\/\/\S+?);/.exec(err);
        if (found) resolve(found[1]);
      });
      server.once('exit', (code) => reject(new Error(`toolbelt mcp exited with ${code}: ${err}`)));
    });
  });
  afterAll(() => {
    server?.kill('SIGTERM');
    rmSync(root, { recursive: true, force: true });
    rmSync(state, { recursive: true, force: true });
  });

  it.each(SCENARIOS)('passes %s', async (scenario) => {
    const r = await conformance(['server', '--url', url, '--scenario', scenario]);
    expect(r.output).toMatch(/Passed: (\d+)\/\1, 0 failed/);
    expect(r.code, r.output).toBe(0);
  });
});
