// A call always settles: a short-lived Node process that awaits a retrying call stays alive through
// the backoff, and a call stopped during its backoff lets the process exit at once.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';

const CORE = fileURLToPath(new URL('../index.ts', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'toolbelt-settle-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Bundles a script against core's sources (so it tests this checkout) and runs it in a fresh node. */
async function runScript(name: string, body: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const contents = `import { defineTool, Executor, ToolRegistry, ToolError } from ${JSON.stringify(CORE)};\nimport { z } from 'zod';\n${body}`;
  const out = join(dir, `${name}.mjs`);
  const built = await build({
    stdin: { contents, resolveDir: dir, loader: 'ts' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    write: false,
    logLevel: 'silent',
    nodePaths: [fileURLToPath(new URL('../../../../node_modules', import.meta.url))],
  });
  writeFileSync(out, built.outputFiles[0].text);
  return new Promise((resolve) => {
    execFile(process.execPath, [out], { timeout: 20_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? ((err as { code?: number }).code ?? null) : 0, stdout, stderr });
    });
  });
}

const FLAKY = `
let runs = 0;
const flaky = defineTool({
  name: 'flaky', description: 'Fails twice, then works.', effect: 'read', input: z.object({}),
  retry: { attempts: 3, baseDelayMs: BASE },
  execute: () => {
    if (++runs < 3) throw new ToolError('EXECUTION_FAILED', 'busy', { recoverable: true });
    return 'ok after ' + runs;
  },
});
const executor = new Executor({ registry: new ToolRegistry().register(flaky) });
`;

describe('a call always settles', () => {
  it('a script that does nothing but await a retrying call prints its result and exits 0', async () => {
    // No top-level await, no other handle: only the backoff timer can keep this process alive.
    const r = await runScript(
      'retry',
      `${FLAKY.replace('BASE', '150')}
executor.call({ tool: 'flaky' }).then((r) => console.log(JSON.stringify({ status: r.status, text: r.content[0]?.text, attempts: r.metadata?.attempts })));`,
    );
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ status: 'success', text: 'ok after 3', attempts: 3 });
  });

  it('a call stopped during its backoff settles as ABORTED and the process exits without waiting out the backoff', async () => {
    // The backoff would be 60-120 s; the run would be killed (and fail) long before that.
    const r = await runScript(
      'stopped',
      `${FLAKY.replace('BASE', '120000')}
executor.events.on((e) => { if (e.type === 'tool.started' && e.attempt === 1) setTimeout(() => executor.close(), 50); });
executor.call({ tool: 'flaky' }).then((r) => console.log(JSON.stringify({ status: r.status, code: r.error?.code, runs })));`,
    );
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ status: 'error', code: 'ABORTED', runs: 1 });
  });
});
