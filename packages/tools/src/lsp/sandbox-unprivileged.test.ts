// sandbox.test.ts as an unprivileged user: toolbelt running as nobody (65534, the built package),
// its language server started by `symbols` in a workspace nobody owns, never runs the planted
// node_modules/typescript/lib/tsserver.js (which would leave a marker in /tmp and in a directory
// nobody may write outside the workspace). Control: unsandboxed and without toolbelt's tsserver
// path, typescript-language-server runs the planted one. One project, one call each: tsserver is slow.
import { cpSync, existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanupScratch, plant } from '../sandbox/__fixtures__/confined.js';
import { callsAsNobody, giveToNobody, nobodyDir, whyNotAsNobody } from '../sandbox/__fixtures__/nobody.js';
import { typescriptLanguageServerBin } from './servers.js';

if (whyNotAsNobody) console.warn(`unprivileged language server tests skipped: ${whyNotAsNobody}`);

const id = `tb-nobody-tsserver-${process.pid}`;
let root: string;
let outside: string;
const ran = () => existsSync(`/tmp/${id}`) || existsSync(join(outside, 'ran'));
/** typescript-language-server as a user could configure it: no tsserver path, so it prefers the project's. */
const unpinned = () => ({
  typescript: { command: process.execPath, args: [typescriptLanguageServerBin(), '--stdio'], extensions: ['.ts'] },
});
const symbols = { tool: 'symbols', input: { path: 'src/shapes.ts' } };

beforeAll(() => {
  if (whyNotAsNobody) return;
  root = nobodyDir('tb-nobody-lsp-');
  outside = nobodyDir('tb-nobody-lsp-out-');
  cpSync(join(import.meta.dirname, '__fixtures__', 'project'), root, { recursive: true });
  plant(root, {
    'node_modules/typescript/package.json': '{"name":"typescript","version":"5.9.3"}\n',
    'node_modules/typescript/lib/tsserver.js': `const fs = require('fs');
try { fs.writeFileSync('/tmp/${id}', 'ran'); } catch {}
try { fs.writeFileSync(${JSON.stringify(join(outside, 'ran'))}, String(process.getuid())); } catch {}
process.exit(1);
`,
  });
  giveToNobody(root);
});
afterEach(() => {
  rmSync(`/tmp/${id}`, { force: true });
  if (outside) rmSync(join(outside, 'ran'), { force: true });
});
afterAll(cleanupScratch);

describe.skipIf(!!whyNotAsNobody)(
  'language servers and the workspace’s code, as an unprivileged user (nobody, via setpriv)',
  () => {
    it('as toolbelt starts it: symbols works on toolbelt’s own tsserver, and the planted one never runs', () => {
      const [r] = callsAsNobody({ root, tools: ['lsp'], calls: [symbols] });
      expect(r.status, r.text).toBe('success');
      expect(r.text).toContain('class Circle — 7:14');
      expect(ran()).toBe(false);
    });

    it('control: unsandboxed and without a tsserver path, the planted tsserver runs as nobody', () => {
      callsAsNobody({ root, tools: ['lsp'], sandbox: 'off', lsp: unpinned(), calls: [symbols] });
      expect(ran()).toBe(true);
    });
  },
);
