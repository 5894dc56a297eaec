// The provider formats against the official SDKs' own types: __fixtures__/sdk-types/check.ts hands
// each format's output to openai, @anthropic-ai/sdk and @google/genai with no cast, and expects the
// wrong format for an SDK to be refused. tsc decides; this test only runs it.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const project = fileURLToPath(new URL('./__fixtures__/sdk-types/tsconfig.json', import.meta.url));

describe('provider formats and the official SDK types', () => {
  it('give OpenAI (chat and responses), Anthropic and Gemini exactly the types their SDKs take', () => {
    const run = spawnSync(process.execPath, [tsc, '-p', project], { encoding: 'utf8' });
    expect(run.stdout + run.stderr).toBe('');
    expect(run.status).toBe(0);
  }, 120_000);
});
