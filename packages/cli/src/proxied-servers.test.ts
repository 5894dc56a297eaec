// Proxied MCP servers as a user meets them: toolbelt started from `/` with --root, a filesystem
// server given "." as in the old docs example. Runs the built CLI: build first.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FILESYSTEM_SERVER, FIXTURE_SERVER } from '../../mcp/src/__fixtures__/servers.js';
import { useIsolatedState, writeTrustedConfig } from './__fixtures__/trust.js';

const BIN = fileURLToPath(new URL('../bin/toolbelt.js', import.meta.url));
const root = realpathSync(mkdtempSync(join(tmpdir(), 'toolbelt-proxied-')));
const outside = realpathSync(mkdtempSync(join(tmpdir(), 'toolbelt-outside-')));
const secret = join(outside, 'secret.txt');
const state = useIsolatedState();

function call(tool: string, input: Record<string, unknown>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const args = [BIN, 'call', tool, JSON.stringify(input), '--root', root, '--json', '--non-interactive'];
    execFile(process.execPath, args, { cwd: '/', timeout: 30_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

describe.runIf(existsSync(fileURLToPath(new URL('../dist', import.meta.url))))(
  'proxied MCP servers started from /',
  () => {
    beforeAll(() => {
      writeFileSync(join(root, 'hello.txt'), 'hello from the workspace\n');
      writeFileSync(secret, 'outside the workspace\n');
      writeTrustedConfig(root, {
        mcpServers: {
          fs: { command: process.execPath, args: [FILESYSTEM_SERVER, '.'], allowedTools: ['read_text_file'] },
          trustedFs: {
            command: process.execPath,
            args: [FILESYSTEM_SERVER, '.'],
            allowedTools: ['read_text_file'],
            trust: 'read',
          },
          fx: { command: process.execPath, args: [FIXTURE_SERVER], allowedTools: ['cwd'], trust: 'read' },
        },
      });
    });
    afterAll(() => {
      rmSync(root, { recursive: true, force: true });
      rmSync(outside, { recursive: true, force: true });
      rmSync(state, { recursive: true, force: true });
    });

    it('starts a stdio server in the first root, not in the directory toolbelt was started from', async () => {
      const r = await call('fx__cwd', {});
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout).content[0].text).toBe(root);
    });

    it("asks for an untrusted server's read-only tool in safe mode, so nothing runs unasked", async () => {
      const r = await call('fs__read_text_file', { path: secret });
      expect(r.code).toBe(3);
      expect(JSON.parse(r.stdout)).toMatchObject({ status: 'rejected', tool: 'fs__read_text_file' });
      expect(r.stdout).not.toContain('outside the workspace');
    });

    it('runs a trusted server\'s read-only tool at once, and "." keeps it inside the root', async () => {
      const inside = await call('trustedFs__read_text_file', { path: 'hello.txt' });
      expect(JSON.parse(inside.stdout)).toMatchObject({ status: 'success', approvedBy: 'auto' });
      expect(inside.stdout).toContain('hello from the workspace');
      const away = await call('trustedFs__read_text_file', { path: secret });
      expect(JSON.parse(away.stdout)).toMatchObject({
        status: 'error',
        error: { message: expect.stringMatching(/access denied/i) },
      });
      expect(away.stdout).not.toContain('outside the workspace');
    });
  },
);
