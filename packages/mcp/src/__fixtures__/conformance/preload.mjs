// Lets the MCP conformance suite run on Node 20: it imports `globSync` from "fs", which Node adds
// in 22. Loaded with `node --import`, this redirects the suite's imports of fs to a module that is
// node:fs plus a globSync made with fast-glob. Nothing else is touched.
import { register } from 'node:module';

if (!('globSync' in (await import('node:fs')))) register('./hooks.mjs', import.meta.url);
