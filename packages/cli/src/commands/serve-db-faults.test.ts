// `toolbelt serve` when its SQLite database cannot be opened: one clear sentence (what, where, what
// to do) and the usage exit code 2, never a stack trace. Real processes: the CLI, and another process holding
// the database's lock.
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const repo = fileURLToPath(new URL('../../../../', import.meta.url));
const bin = join(repo, 'packages/cli/bin/toolbelt.js');
const dir = mkdtempSync(join(tmpdir(), 'tb-serve-db-'));
const ENV = { ...process.env, TOOLBELT_GATEWAY_TOKEN: '', TOOLBELT_GATEWAY_TOKEN_FILE: '', XDG_STATE_HOME: dir };
const tsc = (...args: string[]) =>
  spawnSync(process.execPath, [join(repo, 'node_modules/typescript/bin/tsc'), ...args], {
    cwd: repo,
    encoding: 'utf8',
  });

beforeAll(() => {
  // The CLI runs from dist: bring the gateway and the CLI up to date with their sources.
  if (tsc('-b', 'packages/gateway').status !== 0)
    throw new Error('the gateway does not build, so toolbelt serve cannot be tested');
  if (tsc('-b', 'packages/cli').status !== 0) tsc('-p', 'packages/cli/tsconfig.json');
  // bin/toolbelt.js prefers the bundle: rebuild it from the fresh dist.
  if (spawnSync(process.execPath, [join(repo, 'scripts/bundle.mjs')], { cwd: repo }).status !== 0)
    throw new Error('the CLI bundle does not build');
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const serve = (db: string) =>
  spawnSync(process.execPath, [bin, 'serve', '--root', dir, '--port', '0', '--db', db], {
    encoding: 'utf8',
    env: ENV,
    timeout: 30_000,
  });

describe('toolbelt serve with a database it cannot open', () => {
  it('says in one sentence that a corrupt file is not a database, and what to do', () => {
    const db = join(dir, 'corrupt.db');
    writeFileSync(db, 'this is not a database, just text that is long enough to be read as a header'.repeat(100));
    const out = serve(db);
    expect(out.status).toBe(2);
    expect(out.stderr.trim().split('\n')).toEqual([
      `toolbelt serve: cannot open the gateway database ${db}: it is not a SQLite database or is damaged (SQLITE_NOTADB); restore it from a backup, or move it away to start with an empty one.`,
    ]);
  });

  it('says another process holds the lock of a database locked exclusively', async () => {
    const db = join(dir, 'locked.db');
    const script = `const D = require('better-sqlite3'); const d = new D(${JSON.stringify(db)});
      d.pragma('locking_mode = EXCLUSIVE'); d.exec('CREATE TABLE t (x); BEGIN EXCLUSIVE; INSERT INTO t VALUES (1)'); console.log('locked'); setInterval(() => {}, 1000);`;
    const locker = spawn(process.execPath, ['-e', script], {
      cwd: join(repo, 'packages/gateway'),
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    try {
      await once(locker.stdout, 'data');
      const out = serve(db);
      expect(out.status).toBe(2);
      expect(out.stderr.trim().split('\n')).toHaveLength(1);
      expect(out.stderr).toMatch(
        /^toolbelt serve: cannot open the gateway database .*locked\.db: another process holds its lock \(SQLITE_BUSY\); stop the other process/,
      );
    } finally {
      locker.kill('SIGKILL');
    }
  });
});
