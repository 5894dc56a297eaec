// The classic Tool API's own examples, as a user meets them: @toolbelt/core and @toolbelt/tools
// packed with `npm pack`, installed into a new project, the examples compiled there by a strict tsc
// (no skipLibCheck) and run by node, each with the results the API describes.
import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const EXAMPLES = fileURLToPath(new URL('./__fixtures__/classic-api/', import.meta.url));
const versionOf = (name: string) =>
  (JSON.parse(readFileSync(join(ROOT, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;
/** npm's own variables (set under `npm test`) would point the install back at the repo. */
const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.toLowerCase().startsWith('npm_')));
/** The example reads this very path; whatever was there is put back. */
const TEST_FILE = '/tmp/test.txt';

function run(cmd: string, args: string[], cwd: string) {
  const r = spawnSync(cmd, args, { cwd, env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, timeout: 240_000 });
  if (r.error) throw r.error;
  return { status: r.status, out: `${r.stdout}${r.stderr}`, stdout: r.stdout };
}

let dir: string;
let project: string;
let saved: Buffer | undefined;

beforeAll(() => {
  for (const p of ['core', 'tools'])
    if (!existsSync(join(ROOT, 'packages', p, 'dist')))
      throw new Error(`packages/${p} is not built; run npm run build first`);
  dir = mkdtempSync(join(tmpdir(), 'toolbelt-classic-'));
  const packs = join(dir, 'packs');
  mkdirSync(packs);
  const pack = run(
    'npm',
    [
      'pack',
      '-w',
      '@toolbelt/core',
      '-w',
      '@toolbelt/tools',
      '--ignore-scripts',
      '--json',
      '--pack-destination',
      packs,
    ],
    ROOT,
  );
  expect(pack.status, pack.out).toBe(0);
  project = join(dir, 'app');
  mkdirSync(project);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module' }));
  const tarballs = readdirSync(packs).map((f) => join(packs, f));
  const deps = ['typescript', '@types/node', 'zod'].map((name) => `${name}@${versionOf(name)}`);
  const install = run(
    'npm',
    ['install', '--prefer-offline', '--ignore-scripts', '--no-audit', '--no-fund', ...tarballs, ...deps],
    project,
  );
  expect(install.status, install.out).toBe(0);
  for (const f of readdirSync(EXAMPLES)) copyFileSync(join(EXAMPLES, f), join(project, f));
  const tsconfig = {
    compilerOptions: {
      strict: true,
      module: 'nodenext',
      moduleResolution: 'nodenext',
      target: 'es2022',
      outDir: 'dist',
      types: ['node'],
    },
  };
  writeFileSync(join(project, 'tsconfig.json'), JSON.stringify(tsconfig));
  saved = existsSync(TEST_FILE) ? readFileSync(TEST_FILE) : undefined;
}, 300_000);

afterAll(() => {
  if (saved) writeFileSync(TEST_FILE, saved);
  else rmSync(TEST_FILE, { force: true });
  if (dir) rmSync(dir, { recursive: true, force: true });
}, 180_000);

/** Runs a compiled example from /tmp, the directory its direct call reads from. */
function example(name: string): any {
  const r = run('node', [join(project, 'dist', `${name}.js`)], '/tmp');
  expect(r.status, r.out).toBe(0);
  return JSON.parse(r.stdout.trim().split('\n').pop()!);
}

describe('the classic Tool API, packed and installed', () => {
  it('compiles the examples under strict tsc', () => {
    const tsc = run(join(project, 'node_modules', '.bin', 'tsc'), ['-p', '.'], project);
    expect(tsc.status, tsc.out).toBe(0);
  }, 120_000);

  it('registers the built-ins and a custom tool, then validates and executes read_file directly', () => {
    writeFileSync(TEST_FILE, 'first line\nsecond line\n');
    const { valid, output } = example('registry');
    expect(valid).toBe(true);
    expect(output.content).toBe('1\tfirst line\n2\tsecond line');
    expect(output.isError).toBeUndefined();
  });

  it('lists definitions and tools, refuses a duplicate, validates, confirms and runs by the modes', () => {
    const r = example('checks');
    expect(r.names).toEqual(
      expect.arrayContaining([
        'read_file',
        'write_file',
        'shell_exec',
        'glob',
        'grep',
        'edit_file',
        'web_fetch',
        'my_tool',
        'save_note',
      ]),
    );
    expect(r.counts[0]).toBe(r.counts[1]);
    expect(r.myDefinition).toEqual({
      name: 'my_tool',
      description: 'Does something useful',
      parameters: expect.objectContaining({
        type: 'object',
        properties: { input: { type: 'string', description: 'The input to process' } },
        required: ['input'],
      }),
    });
    expect(r.duplicate).toMatch(/"my_tool" is already registered/);
    expect(r.has).toBe(true);
    expect(r.validate[0]).toEqual({ valid: true });
    expect(r.validate[1].valid).toBe(false);
    expect(r.validate[1].error).toMatch(/input/);
    expect(r.direct).toEqual({ content: 'Processed: x' });
    // Reads need no confirmation; writes and shell commands do.
    expect(r.confirmations.read_file.required).toBe(false);
    expect(r.confirmations.glob.required).toBe(false);
    expect(r.confirmations.grep.required).toBe(false);
    expect(r.confirmations.write_file).toMatchObject({ required: true, type: 'write' });
    expect(r.confirmations.edit_file).toMatchObject({ required: true });
    expect(r.confirmations.shell_exec).toMatchObject({ required: true });
    // none: everything asks (and no one is there to say yes); safe: reads run; all: everything runs.
    expect([r.modes.none.my, r.modes.none.note]).toEqual(['rejected', 'rejected']);
    expect([r.modes.safe.my, r.modes.safe.note]).toEqual(['success', 'rejected']);
    expect([r.modes.all.my, r.modes.all.note]).toEqual(['success', 'success']);
    expect(r.modes.all.content).toEqual([{ type: 'text', text: 'Processed: hello' }]);
    expect(r.modes.all.bad).toMatch(/^Invalid parameters for my_tool: .*input/);
    expect(r.modes.all.events).toBe(true);
    expect(r.modes.all.logged).toEqual(['my_tool', 'my_tool', 'save_note']);
    expect(r.unregister).toEqual([true, true]);
  });
});
