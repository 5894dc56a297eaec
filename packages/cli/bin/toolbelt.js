#!/usr/bin/env node
// The bundle (npm run build makes it) starts much faster; the plain build is the fallback.
import { existsSync } from 'node:fs';

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
