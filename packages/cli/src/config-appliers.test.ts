// Every key of core's config sections reaches both front ends through core's appliers: the CLI
// (`toolbelt serve`: the runtime's executor, joined by a gateway that adds the declared tools) and a
// gateway on its own (its own executor and policy, from the same config). The keys come from a walk
// of the schema, so a key added later without a value here fails; each is set alone to a value other
// than its default, and must change what both front ends built, and change it alike.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { coreConfigSchema, coreConfigShape, ToolRegistry, type Executor } from '@toolbelt/core';
import { createGateway, openSqliteStore, storeDecisions, type GatewayConfig } from '@toolbelt/gateway';
import { createRuntime } from './runtime.js';

const dir = realpathSync(mkdtempSync(join(tmpdir(), 'tb-appliers-')));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const root = join(dir, 'ws');
mkdirSync(root);
const env = { XDG_STATE_HOME: join(dir, 'state') };

/** The keys a schema leads to: an object's keys, a record's values under `*`; anything else is one key. */
function leafKeys(schema: z.ZodType, path: string): string[] {
  if (schema instanceof z.ZodOptional) return leafKeys(schema.unwrap() as z.ZodType, path);
  if (schema instanceof z.ZodObject)
    return Object.entries(schema.shape as Record<string, z.ZodType>).flatMap(([k, s]) =>
      leafKeys(s, path ? `${path}.${k}` : k),
    );
  if (schema instanceof z.ZodRecord) return leafKeys(schema.valueType as z.ZodType, `${path}.*`);
  return [path];
}

/** The declared tool toolSettings speak of (`*`): both front ends add it through the gateway. */
const TOOL = 'lookup';
const declared = {
  name: TOOL,
  description: 'Answered by an external worker.',
  inputSchema: { type: 'object' },
  executionType: 'external',
  effect: 'read',
};

/** Per key: a value other than its default, and the keys it needs beside it (set in both runs). */
const PROBES: Record<string, { value: unknown; beside?: Record<string, unknown> }> = {
  mode: { value: 'yolo' },
  rules: { value: [{ tool: TOOL, action: 'ask', reason: 'probe' }] },
  hardDeny: { value: [{ tool: TOOL, action: 'deny', reason: 'probe' }] },
  'toolSettings.*.enabled': { value: false },
  'toolSettings.*.timeoutMs': { value: 4321 },
  'toolSettings.*.retry.attempts': { value: 2 },
  'toolSettings.*.retry.baseDelayMs': { value: 77, beside: { 'toolSettings.*.retry.attempts': 1 } },
  'toolSettings.*.cacheTtlMs': { value: 999 },
  'limits.maxOutputChars': { value: 12_345 },
  'limits.defaultTimeoutMs': { value: 23_456 },
  'limits.approvalTimeoutMs': { value: 34_567 },
  'log.redact': { value: ['secret'] },
  'log.results': { value: false },
  aliases: { value: false },
  structuredText: { value: 'toon' },
};

function withKeys(keys: Record<string, unknown>): Record<string, unknown> {
  const config: Record<string, unknown> = {};
  for (const [path, value] of Object.entries(keys)) {
    const parts = path.replace('*', TOOL).split('.');
    let at = config;
    for (const p of parts.slice(0, -1)) at = (at[p] ??= {}) as Record<string, unknown>;
    at[parts.at(-1)!] = value;
  }
  return config;
}

/** What a front end built of the config: the executor's settings, the policy, the declared tool. */
function built(executor: Executor) {
  const tool = executor.registry.get(TOOL);
  const { mode, rules, hardDeny } = executor.policy.config;
  return {
    settings: executor.settings,
    policy: { mode, rules, hardDeny },
    tool: tool ? { timeoutMs: tool.timeoutMs, retry: tool.retry, cacheTtlMs: tool.cacheTtlMs } : 'left out',
  };
}

let runs = 0;

/** `toolbelt serve`'s way: the runtime builds the executor from the config file, a gateway joins it. */
async function viaCli(config: Record<string, unknown>) {
  const file = join(dir, `config-${++runs}.json`);
  writeFileSync(file, JSON.stringify({ ...config, tools: [declared] }));
  const store = openSqliteStore(join(dir, `cli-${runs}.db`));
  const rt = await createRuntime(
    { root: [root], config: file },
    { env, stores: () => ({ decisions: storeDecisions(store), keepsLog: true, close: () => store.close() }) },
  );
  const gw = await createGateway({ executor: rt.executor, registry: rt.registry, store, config: rt.config, env: {} });
  try {
    return built(rt.executor);
  } finally {
    await gw.close();
    await rt.close();
  }
}

/** A gateway on its own: its executor and policy from the same config. */
async function viaGateway(config: Record<string, unknown>) {
  const store = openSqliteStore(join(dir, `gw-${++runs}.db`));
  const gw = await createGateway({
    registry: new ToolRegistry(),
    store,
    config: { ...config, tools: [declared] } as GatewayConfig,
    env: {},
    consoleDir: false,
  });
  try {
    return built(gw.executor);
  } finally {
    await gw.close();
    await store.close();
  }
}

describe("core's config sections, applied alike by the CLI and the gateway", () => {
  it('has a probe for every key the schema has', () => {
    const keys = Object.entries(coreConfigShape).flatMap(([k, s]) => leafKeys(s as z.ZodType, k));
    expect(keys.sort()).toEqual(Object.keys(PROBES).sort());
  });

  for (const [key, { value, beside = {} }] of Object.entries(PROBES)) {
    it(`${key}: changes what both front ends build, alike`, async () => {
      const without = withKeys(beside);
      const withIt = withKeys({ ...beside, [key]: value });
      expect(coreConfigSchema.safeParse(withIt).success, 'the probe is a valid config').toBe(true);
      const [cliWithout, cliWith] = [await viaCli(without), await viaCli(withIt)];
      const [gwWithout, gwWith] = [await viaGateway(without), await viaGateway(withIt)];
      expect(cliWith, `the CLI ignores ${key}`).not.toEqual(cliWithout);
      expect(gwWith, `the gateway ignores ${key}`).not.toEqual(gwWithout);
      expect(gwWith, `the gateway applies ${key} otherwise than the CLI`).toEqual(cliWith);
      expect(gwWithout).toEqual(cliWithout);
    });
  }
});

describe("the tools package's shell.allow and shell.deny", () => {
  it("decide shell commands in the CLI's policy, as rules before the config's own", async () => {
    const file = join(dir, 'shell.json');
    writeFileSync(
      file,
      JSON.stringify({
        shell: { allow: ['make test'], deny: ['make clean'] },
        rules: [{ tool: 'shell_exec', command: 'make test --slow', action: 'ask', reason: 'slow' }],
      }),
    );
    const rt = await createRuntime({ root: [root], config: file }, { env });
    try {
      const decide = async (command: string) =>
        (await rt.executor.explain({ tool: 'shell_exec', input: { command } })).decision;
      expect(await decide('make test')).toMatchObject({ action: 'allow', reason: /shell\.allow in config$/ });
      expect(await decide('make clean')).toMatchObject({ action: 'deny', reason: /shell\.deny in config$/ });
      // The config's own rule is matched first (last to first), so it wins over shell.allow.
      expect(await decide('make test --slow')).toMatchObject({ action: 'ask', reason: /: slow$/ });
    } finally {
      await rt.close();
    }
  });
});
