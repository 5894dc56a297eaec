#!/usr/bin/env node
// The bundle (npm run build makes it) starts much faster; the plain build is the fallback.
import { existsSync } from 'node:fs';

// `toolbelt tools | head`: once the reader has gone, the rest of the output has nowhere to go.
// Exit quietly, as a Unix tool does, instead of crashing with "write EPIPE".
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (err) => {
    if (err.code !== 'EPIPE') throw err;
    process.exit(process.exitCode ?? 0);
  });
}

const bundled = new URL('../dist/bundle/main.js', import.meta.url);
const { main } = await import(existsSync(bundled) ? bundled.href : '../dist/main.js');

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err) => {
    console.error(`toolbelt: ${err?.stack ?? err}`);
    process.exitCode = 1;
  },
);
