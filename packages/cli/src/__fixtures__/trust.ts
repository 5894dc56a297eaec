// Tests keep toolbelt's per-user state (trusted configs, saved approvals, gateway databases) in a
// temp directory of their own, never the real home's, and trust a workspace config as
// `toolbelt trust` does: the same code, recording its bytes there.
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll } from 'vitest';
import { recordTrust } from '../config/trust.js';

type Env = Record<string, string | undefined>;

/** A fresh XDG_STATE_HOME outside every test root (a temp directory of its own). */
export function isolatedState(): { XDG_STATE_HOME: string } {
  return { XDG_STATE_HOME: realpathSync(mkdtempSync(join(tmpdir(), 'tb-state-'))) };
}

/**
 * Points this test process (and the CLI it runs in-process or spawns with process.env) at a fresh
 * state directory, removed after the file's tests. Each test file runs in its own process (vitest's forks pool).
 */
export function useIsolatedState(): string {
  const { XDG_STATE_HOME } = isolatedState();
  process.env.XDG_STATE_HOME = XDG_STATE_HOME;
  afterAll(() => rmSync(XDG_STATE_HOME, { recursive: true, force: true }));
  return XDG_STATE_HOME;
}

/** Trusts the config at `path` as it is now, in the state directory `env` names (default: this process's). */
export function trustConfig(path: string, env: Env = process.env, roots: string[] = [dirname(path)]): void {
  recordTrust(path, readFileSync(path), roots, env);
}

/** Writes `config` as `<root>/toolbelt.config.json` and trusts it; returns its path. */
export function writeTrustedConfig(root: string, config: unknown, env: Env = process.env): string {
  const path = join(root, 'toolbelt.config.json');
  writeFileSync(path, typeof config === 'string' ? config : JSON.stringify(config));
  trustConfig(path, env, [root]);
  return path;
}
