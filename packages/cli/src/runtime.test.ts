// The runtime hands the workspace guard toolbelt's own files wherever they are: the --config file,
// the gateway database (configured or default), the per-user state directory and token files.
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError } from '@toolbelt/core';
import { TRUST_ENV } from './config/trust.js';
import { sha256 } from './config/trust-store.js';
import { createRuntime } from './runtime.js';
import { gatewayDbPath, rootStateDir } from './state-paths.js';

const root = realpathSync(mkdtempSync(join(tmpdir(), 'tb-runtime-')));
afterAll(() => rmSync(root, { recursive: true, force: true }));
mkdirSync(join(root, 'conf'));
mkdirSync(join(root, 'keys'));
writeFileSync(join(root, 'keys', 'agent.token'), 'agent-token-0123456789abcdef\n');
writeFileSync(join(root, 'notes.txt'), 'ordinary\n');
// The user state directory inside the root: as when a root is the home directory.
const env = { XDG_STATE_HOME: join(root, 'state') };
// A config inside the root needs trust, and a state directory inside the root cannot hold it: pin
// the config's bytes in the environment, as CI does.
const pinned = (file: string) => ({ ...env, [TRUST_ENV]: sha256(readFileSync(file)) });
writeFileSync(
  join(root, 'conf', 'agents.json'),
  JSON.stringify({
    gateway: { db: 'data/gw.db', tokens: [{ tokenFile: join(root, 'keys', 'agent.token'), roles: ['call'] }] },
  }),
);

describe('createRuntime', () => {
  it("refuses toolbelt's own files to the file tools, wherever they are", async () => {
    const config = join(root, 'conf', 'agents.json');
    const rt = await createRuntime({ root: [root], config }, { env: pinned(config) });
    try {
      expect(rt.gatewayDb).toBe(join(root, 'data', 'gw.db'));
      for (const path of [
        'conf/agents.json',
        'data/gw.db',
        'data/gw.db-wal',
        'keys/agent.token',
        'state/toolbelt/other-root-0123/gateway.db',
      ]) {
        await expect(rt.workspace.resolve(path, 'read'), path).rejects.toThrow(/protected/);
      }
      await expect(rt.workspace.resolve('conf', 'delete')).rejects.toThrow(/it holds conf\/agents\.json/);
      await expect(rt.workspace.resolve('conf', 'list')).resolves.toBe(join(root, 'conf'));
      await expect(rt.workspace.resolve('notes.txt', 'read')).resolves.toBe(join(root, 'notes.txt'));
    } finally {
      await rt.close();
    }
  });

  it('reports a workspace section the disk refuses as a config error, naming the file', async () => {
    const file = join(root, 'conf', 'elsewhere.json');
    writeFileSync(file, JSON.stringify({ workspace: { cwd: '/' } }));
    await expect(createRuntime({ root: [root], config: file }, { env: pinned(file) })).rejects.toThrow(ConfigError);
    await expect(createRuntime({ root: [root], config: file }, { env: pinned(file) })).rejects.toThrow(
      `${file} is invalid:\n  - workspace: cwd / is outside the workspace roots ${root}`,
    );
    writeFileSync(file, JSON.stringify({ workspace: { roots: ['missing'] } }));
    await expect(createRuntime({ root: [root], config: file }, { env: pinned(file) })).rejects.toThrow(
      `workspace: workspace root ${join(root, 'missing')} does not exist`,
    );
  });

  it('puts the gateway database in the user state directory by default, one per root', async () => {
    expect(gatewayDbPath(undefined, root, env)).toBe(join(rootStateDir(root, env), 'gateway.db'));
    expect(rootStateDir(root, env)).toMatch(
      new RegExp(`^${join(root, 'state', 'toolbelt')}/tb-runtime-\\w+-[0-9a-f]{16}$`),
    );
    expect(rootStateDir(join(root, 'conf'), env)).not.toBe(rootStateDir(root, env));
    expect(gatewayDbPath('/abs/gw.db', root, env)).toBe('/abs/gw.db');
    const rt = await createRuntime({ root: [root] }, { env });
    try {
      await expect(rt.workspace.resolve(rt.gatewayDb, 'read')).rejects.toThrow(/protected/);
    } finally {
      await rt.close();
    }
  });

  it('takes a postgres:// database from --db, TOOLBELT_DB or gateway.db as it is, --db first', async () => {
    const url = 'postgres://tb@db.internal:5432/toolbelt';
    expect(gatewayDbPath(url, root, env)).toBe(url);
    const fromEnv = await createRuntime({ root: [root] }, { env: { ...env, TOOLBELT_DB: url } });
    expect(fromEnv.gatewayDb).toBe(url);
    await fromEnv.close();
    const fromFlag = await createRuntime({ root: [root], db: 'flag.db' }, { env: { ...env, TOOLBELT_DB: url } });
    expect(fromFlag.gatewayDb).toBe(join(root, 'flag.db'));
    await fromFlag.close();
  });
});
