// What a user installs: every package packed with `npm pack`, the tarballs installed into a new
// project outside the repo, every public entry point compiled there by a strict tsc without
// skipLibCheck, every entry point imported by node, each package README's TypeScript compiled, and
// the README's library example run.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const PACKAGES = ['core', 'protocol', 'tools', 'mcp', 'client', 'gateway', 'agent', 'adapters', 'integrations', 'cli'];
/** Where a Zod schema crosses the API: these declare zod 4 as a peer. */
const ZOD_PEERS = ['core', 'protocol', 'tools', 'mcp', 'gateway', 'integrations'];
/** The frameworks @toolbelt/adapters plugs into (optional peers), so its entry points type-check. */
const FRAMEWORKS = ['ai', '@langchain/core', '@openai/agents'];
// Read from the repo's own install: some packages (@openai/agents) do not export their package.json.
const versionOf = (name: string) =>
  (JSON.parse(readFileSync(join(ROOT, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;

interface Packed {
  name: string;
  filename: string;
  files: { path: string }[];
}

/** npm's own variables (set when this runs under `npm test`) would point the install back at the repo. */
const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.toLowerCase().startsWith('npm_')));

function run(cmd: string, args: string[], cwd: string) {
  const r = spawnSync(cmd, args, { cwd, env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (r.error) throw r.error;
  return { status: r.status, out: `${r.stdout}${r.stderr}`, stdout: r.stdout };
}

/** The fenced blocks of one language in a Markdown file. */
function blocks(file: string, lang: string, after = ''): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.slice(text.indexOf(after)).matchAll(new RegExp('```' + lang + '\\n([\\s\\S]*?)```', 'g'))].map(
    (m) => m[1],
  );
}

let dir: string;
let project: string;
let packed: Packed[];

beforeAll(() => {
  for (const p of PACKAGES) {
    if (!existsSync(join(ROOT, 'packages', p, 'dist')))
      throw new Error(`packages/${p} is not built; run npm run build first`);
  }
  dir = mkdtempSync(join(tmpdir(), 'toolbelt-packed-'));
  const packs = join(dir, 'packs');
  mkdirSync(packs);
  const pack = run('npm', ['pack', '--workspaces', '--ignore-scripts', '--json', '--pack-destination', packs], ROOT);
  expect(pack.status, pack.out).toBe(0);
  // A private workspace (the console, shipped inside the gateway) is not a package a user installs.
  const isPrivate = (name: string) =>
    JSON.parse(readFileSync(join(ROOT, 'packages', name.replace('@toolbelt/', ''), 'package.json'), 'utf8')).private ===
    true;
  packed = (JSON.parse(pack.stdout) as Packed[]).filter((p) => !isPrivate(p.name));

  project = join(dir, 'app');
  mkdirSync(project);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module' }));
  const deps = ['typescript', '@types/node', 'zod', ...FRAMEWORKS].map((name) => `${name}@${versionOf(name)}`);
  // No install scripts: the library needs nothing built (better-sqlite3 is the gateway's alone).
  const install = run(
    'npm',
    [
      'install',
      '--prefer-offline',
      '--ignore-scripts',
      '--no-audit',
      '--no-fund',
      ...packed.map((p) => join(packs, p.filename)),
      ...deps,
    ],
    project,
  );
  expect(install.status, install.out).toBe(0);
}, 240_000);

// Removing the installed project (some 300 packages) and the global prefix takes long on a busy machine.
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
}, 180_000);

describe('the packed packages', () => {
  it('are all of them, each with its LICENSE, README, CHANGELOG and built entry points, and no source maps or tests', () => {
    expect(packed.map((p) => p.name).sort()).toEqual(PACKAGES.map((p) => `@toolbelt/${p}`).sort());
    for (const p of packed) {
      const files = p.files.map((f) => f.path);
      const manifest = JSON.parse(
        readFileSync(join(ROOT, 'packages', p.name.replace('@toolbelt/', ''), 'package.json'), 'utf8'),
      );
      const entries = Object.values(manifest.exports as Record<string, { types: string; default: string }>).flatMap(
        (e) => [e.types, e.default].map((f) => f.replace(/^\.\//, '')),
      );
      expect(files, p.name).toEqual(
        expect.arrayContaining(['LICENSE', 'README.md', 'CHANGELOG.md', 'package.json', ...entries]),
      );
      expect(
        files.filter((f) => /\.map$|\.test\.|__fixtures__/.test(f)),
        p.name,
      ).toEqual([]);
    }
  });

  it('carry the MIT license and declare zod 4 as a peer where a Zod schema crosses their API', () => {
    const license = readFileSync(join(ROOT, 'LICENSE'), 'utf8');
    expect(license).toMatch(/^MIT License\n\nCopyright \(c\) \d{4} The toolbelt authors\n/);
    for (const p of PACKAGES) {
      const installed = join(project, 'node_modules', '@toolbelt', p);
      expect(readFileSync(join(installed, 'LICENSE'), 'utf8'), p).toBe(license);
      const manifest = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8'));
      expect(manifest.license, p).toBe('MIT');
      if (ZOD_PEERS.includes(p)) expect(manifest.peerDependencies, p).toEqual({ zod: '^4.1.0' });
      else expect(manifest.peerDependencies?.zod, p).toBeUndefined();
    }
  });

  it("type-check in the strictest consumer, without skipLibCheck: every entry point, and every package README's TypeScript", () => {
    const imports: string[] = [];
    for (const p of PACKAGES) {
      const manifest = JSON.parse(readFileSync(join(project, 'node_modules', '@toolbelt', p, 'package.json'), 'utf8'));
      for (const sub of Object.keys(manifest.exports as Record<string, unknown>)) {
        imports.push(
          `export * as ${`${p}${sub === '.' ? '' : `_${sub.slice(2)}`}`.replace(/\W/g, '_')} from '@toolbelt/${p}${sub === '.' ? '' : sub.slice(1)}';`,
        );
      }
      blocks(join(ROOT, 'packages', p, 'README.md'), 'ts').forEach((code, i) =>
        writeFileSync(join(project, `readme-${p}-${i}.ts`), code),
      );
    }
    expect(imports.length).toBeGreaterThanOrEqual(PACKAGES.length + 2);
    writeFileSync(join(project, 'entry.ts'), imports.join('\n') + '\n');
    const [example] = blocks(join(ROOT, 'README.md'), 'ts', '## As a library');
    const probe = `\nconsole.log(JSON.stringify({ status: result.status, content: result.content, definitions }));\n`;
    writeFileSync(join(project, 'example.ts'), example + probe);
    writeFileSync(
      join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          types: ['node'],
          outDir: 'out',
          // As strict as a consumer may be: our types must hold under every one of these.
          strict: true,
          skipLibCheck: false,
          exactOptionalPropertyTypes: true,
          noUncheckedIndexedAccess: true,
          noImplicitOverride: true,
          noPropertyAccessFromIndexSignature: true,
        },
        include: ['*.ts'],
      }),
    );
    const tsc = run(process.execPath, [join(project, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', '.'], project);
    // The frameworks @toolbelt/adapters plugs into fail these settings in their own declarations
    // (a user who imports them directly meets the same errors): those lines are theirs, not ours.
    // Every error in our files, or in any other package, still fails the test.
    const theirs = /^node_modules\/(ai|@ai-sdk|@langchain|langsmith|@openai|openai)\//;
    const ours = tsc.out.split('\n').filter((line) => /error TS\d+/.test(line) && !theirs.test(line));
    expect(ours.join('\n')).toBe('');
  }, 120_000);

  it("run the README's library example as written", () => {
    const r = run(process.execPath, ['out/example.js'], project);
    expect(r.status, r.out).toBe(0);
    const out = JSON.parse(r.stdout.trim().split('\n').at(-1)!);
    expect(out.status).toBe('success');
    expect(out.content[0].text).toMatch(/^released to staging \(tc_/);
    expect(out.definitions.find((d: { name: string }) => d.name === 'deploy')).toMatchObject({
      input_schema: { type: 'object' },
    });
  });

  it('load at run time in node: every entry point of every package (each `exports` key), with exports', () => {
    const specs = PACKAGES.flatMap((p) => {
      const manifest = JSON.parse(readFileSync(join(project, 'node_modules', '@toolbelt', p, 'package.json'), 'utf8'));
      return Object.keys(manifest.exports as Record<string, unknown>).map(
        (sub) => `@toolbelt/${p}${sub === '.' ? '' : sub.slice(1)}`,
      );
    });
    const probe = `const out = {};\nfor (const spec of ${JSON.stringify(specs)}) {\n  try { out[spec] = Object.keys(await import(spec)).length; } catch (err) { out[spec] = String(err); }\n}\nconsole.log(JSON.stringify(out));\n`;
    writeFileSync(join(project, 'load.mjs'), probe);
    const r = run(process.execPath, ['load.mjs'], project);
    expect(r.status, r.out).toBe(0);
    const loaded = JSON.parse(r.stdout) as Record<string, number | string>;
    expect(Object.keys(loaded)).toEqual(specs);
    for (const [spec, n] of Object.entries(loaded))
      expect(typeof n === 'number' && n > 0 ? 'loaded' : n, spec).toBe('loaded');
  });

  it('install the toolbelt command from @toolbelt/cli', () => {
    const r = run(join(project, 'node_modules', '.bin', 'toolbelt'), ['tools', '--root', project], project);
    expect(r.status, r.out).toBe(0);
    expect(r.stdout).toMatch(/^read_file\s+read/m);
  });
});
