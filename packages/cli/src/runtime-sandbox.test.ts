// Every front end (`toolbelt chat`, `call`, `mcp`, `serve`) builds its tools with createRuntime:
// the git tools and language servers there run in the runtime's one sandbox. Shown by a sandbox
// that cannot start (mode "required", no bubblewrap): each family refuses to run anything, and
// says why.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { useIsolatedState, writeTrustedConfig } from './__fixtures__/trust.js';
import { createRuntime } from './runtime.js';

const root = realpathSync(mkdtempSync(join(tmpdir(), 'tb-runtime-sandbox-')));
afterAll(() => rmSync(root, { recursive: true, force: true }));
execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: root });
writeFileSync(join(root, 'a.ts'), 'export const a = 1;\n');
const env = { HOME: root, XDG_STATE_HOME: useIsolatedState() };
writeTrustedConfig(root, { mode: 'yolo', sandbox: { mode: 'required', bwrapPath: '/nonexistent/bwrap' } }, env);

describe('the runtime’s sandbox', () => {
  it('is where the git tools and the language servers run', async () => {
    const rt = await createRuntime({ root: [root] }, { env });
    try {
      for (const [tool, input] of [
        ['git_status', {}],
        ['symbols', { path: 'a.ts' }],
      ] as const) {
        const r = await rt.executor.call({ tool, input });
        expect(r.error?.code, tool).toBe('PERMISSION_DENIED');
        expect(r.error?.message, tool).toContain('sandbox.mode is "required"');
      }
    } finally {
      await rt.close();
    }
  });
});
