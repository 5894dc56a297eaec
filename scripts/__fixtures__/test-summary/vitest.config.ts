// A suite of its own for scripts/test-summary.test.ts: only the fixture files in this folder.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    root: fileURLToPath(new URL('.', import.meta.url)),
    include: ['*.fixture.ts'],
    hookTimeout: 5_000,
  },
});
