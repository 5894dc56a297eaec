#!/usr/bin/env node
import { main } from '../dist/main.js';

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err) => {
    console.error(`toolbelt: ${err?.stack ?? err}`);
    process.exitCode = 1;
  },
);
