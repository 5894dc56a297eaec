// Runs one scenario of the official MCP conformance suite (@modelcontextprotocol/conformance) on
// this Node, through preload.mjs (fs.globSync for Node 20); resolves with its exit code and output.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const repo = join(here, '..', '..', '..', '..', '..');
export const SUITE = join(repo, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');
export const CLIENT_DRIVER = join(here, 'client.mjs');
/** The driver imports the built packages. */
export const canRun = existsSync(SUITE) && existsSync(join(repo, 'packages', 'mcp', 'dist', 'index.js'));

export function conformance(args: string[]): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', join(here, 'preload.mjs'), SUITE, ...args],
      { cwd: repo, timeout: 120_000 },
      (err, stdout, stderr) => {
        resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, output: stdout + stderr });
      },
    );
  });
}
