// `npm run test:fast`: the unit tests, a quick loop. Left out, each run by `npm test`:
// end-to-end tests of the gateway and the console (a browser), the Emacs client, everything on
// PostgreSQL, the MCP conformance suites, the type-checks against the providers' SDKs, the
// packed-and-installed packages, the global install, and the docs' code blocks.
import { configDefaults, defineConfig, mergeConfig } from 'vitest/config';
import base from './vitest.config.js';

export const SLOW = [
  'packages/*/src/**/e2e/**', // the gateway over HTTP, the console in Chromium
  'clients/emacs/emacs.test.ts', // toolbelt.el in Emacs against a real gateway
  '**/*pg*.test.ts', // PostgreSQL: the store, the event recorder, toolbelt serve, failover
  '**/conformance*.test.ts', // the official MCP conformance suites against our client and server
  '**/*.sdk.test.ts', // tsc over the OpenAI, Anthropic and Google SDKs' request types
  'packages/cli/src/packed.test.ts', // npm pack, install and strict tsc in a new project
  '**/*.packed.test.ts', // the same for one API's examples (the classic Tool API)
  'packages/cli/src/install-global.test.ts', // npm run install-global into a temp prefix
  'scripts/doc-tests/**', // every code block of the README and docs, in a clone
  '**/*.property.test.ts', // random scripts run for real in the sandbox, under strace
  '**/*-unprivileged.test.ts', // the sandbox's attacks again as an unprivileged user
  'packages/tools/src/shell/classify/corpus.test.ts', // 1,000 real commands, each read run under strace
  'packages/tools/src/fs/race*.test.ts', // thousands of calls against a concurrent swapper
  'packages/tools/src/lsp/**', // the real typescript-language-server
  'packages/cli/src/package-runner.test.ts', // npx fetching from the npm registry
  'packages/cli/src/trust.test.ts', // every channel of rewriting a config, as root and as nobody
  'packages/cli/src/commands/serve.test.ts', // toolbelt serve as a child process
];

export default mergeConfig(base, defineConfig({ test: { exclude: [...configDefaults.exclude, ...SLOW] } }));
