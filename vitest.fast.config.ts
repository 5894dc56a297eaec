// `npm run test:fast`: the unit tests, about 4 minutes of CPU. Left out, each run by `npm test`:
// end-to-end tests of the gateway and the console (a browser), the Emacs client, everything on
// PostgreSQL, the MCP conformance suites, the type-checks against the providers' SDKs, the
// packed-and-installed packages, the global install, and the docs' code blocks.
import { configDefaults, defineConfig, mergeConfig } from 'vitest/config';
import base from './vitest.config.js';

export const SLOW = [
  'packages/*/src/**/e2e/**', // the gateway over HTTP, the console in Chromium
  'clients/emacs/**', // toolbelt.el in Emacs against a real gateway
  '**/*pg*.test.ts', // PostgreSQL: the store, the event recorder, toolbelt serve, failover
  '**/conformance*.test.ts', // the official MCP conformance suites against our client and server
  '**/*.sdk.test.ts', // tsc over the OpenAI, Anthropic and Google SDKs' request types
  'packages/cli/src/packed.test.ts', // npm pack, install and strict tsc in a new project
  '**/*.packed.test.ts', // the same for one API's examples (the classic Tool API)
  'packages/cli/src/install-global.test.ts', // npm run install-global into a temp prefix
  'scripts/doc-tests/**', // every code block of the README and docs, in a clone
];

export default mergeConfig(base, defineConfig({ test: { exclude: [...configDefaults.exclude, ...SLOW] } }));
