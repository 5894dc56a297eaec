// Builds the console into the gateway package (dist/console-assets), which `toolbelt serve` serves from disk.
// A folder of its own: emptyOutDir clears it, never the gateway's compiled code beside it.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/',
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: fileURLToPath(new URL('../gateway/dist/console-assets', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    chunkSizeWarningLimit: 1200,
  },
});
