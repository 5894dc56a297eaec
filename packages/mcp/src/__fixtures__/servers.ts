// Where the test servers live, and a registry + executor to put their tools in.
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Executor, Policy, ToolRegistry, type Mode, type Rule } from '@toolbelt/core';
import type { McpServerConfig } from '../config.js';

const here = dirname(fileURLToPath(import.meta.url));

function findPackage(name: string): string {
  for (let dir = here; dir !== dirname(dir); dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name);
    if (existsSync(candidate)) return candidate;
  }
  throw new Error(`${name} is not installed`);
}

export const FIXTURE_SERVER = join(here, 'fixture-server.mjs');
export const EVERYTHING_SERVER = join(findPackage('@modelcontextprotocol/server-everything'), 'dist', 'index.js');
export const FILESYSTEM_SERVER = join(findPackage('@modelcontextprotocol/server-filesystem'), 'dist', 'index.js');

export const fixture = (extra: Partial<McpServerConfig> = {}): McpServerConfig => ({
  command: process.execPath,
  args: [FIXTURE_SERVER],
  ...extra,
});
export const everything = (extra: Partial<McpServerConfig> = {}): McpServerConfig => ({
  command: process.execPath,
  args: [EVERYTHING_SERVER, 'stdio'],
  ...extra,
});
export const filesystem = (root: string, extra: Partial<McpServerConfig> = {}): McpServerConfig => ({
  command: process.execPath,
  args: [FILESYSTEM_SERVER, root],
  ...extra,
});

/** A temp directory with hello.txt in it. */
export function tempRoot(): string {
  const dir = mkdtempSync(join(tmpdir(), 'toolbelt-mcp-'));
  writeFileSync(join(dir, 'hello.txt'), 'hello from the file system\n');
  return dir;
}

export function executorFor(registry: ToolRegistry, mode: Mode = 'yolo', rules: Rule[] = []): Executor {
  return new Executor({ registry, policy: new Policy({ mode, rules }) });
}

/** Resolves when `check` holds, polling; rejects after `ms`. */
export async function until(check: () => boolean, ms = 10_000, what = 'condition'): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
