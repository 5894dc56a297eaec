// Starts toolbelt (the built CLI bundle) and server-filesystem over stdio with the official SDK
// client, and reads back results as text, errors included: a refused call costs tokens too.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { repoRoot } from '../lib/harness.mjs';
import { resultText } from './count.mjs';

export const TOOLBELT = join(repoRoot, 'packages', 'cli', 'bin', 'toolbelt.js');
export const FILESYSTEM = join(
  repoRoot,
  'node_modules',
  '@modelcontextprotocol',
  'server-filesystem',
  'dist',
  'index.js',
);

/** Connects to a stdio server; returns the client, its tools/list answer and its instructions. */
export async function connect(args, cwd) {
  const client = new Client({ name: 'bench-tokens', version: '1' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args, cwd, stderr: 'ignore' }));
  const list = await client.listTools();
  return { client, list, instructions: client.getInstructions() ?? '' };
}

/** The text a model gets back from one call: the result, or the protocol error's message. */
export async function callText(client, name, args) {
  try {
    return resultText(await client.callTool({ name, arguments: args }));
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}

/** Whether this build's `toolbelt mcp` accepts --groups (it exits at once with usage when it does not). */
export function groupsFlagAccepted(root) {
  const probe = spawnSync(process.execPath, [TOOLBELT, 'mcp', '--groups', 'files,search', '--root', root, '--status'], {
    cwd: root,
    encoding: 'utf8',
    timeout: 30_000,
  });
  return !/unknown option/i.test(`${probe.stderr}${probe.stdout}`);
}
