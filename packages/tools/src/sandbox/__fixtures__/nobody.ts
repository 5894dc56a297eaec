// Running toolbelt as an unprivileged user, for the tests that check an attack as root and as
// nobody (65534): the tests run as root, switch to nobody with setpriv, and run the built package
// (dist) there, as toolbelt installed for that user would. Shared by every *unprivileged* test.
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { chownSync, existsSync, lstatSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { trustedProgram } from '../../process/programs.js';
import { sandboxWorks } from './available.js';
import { scratchDir } from './confined.js';
import { openCheckoutToNobody } from './reachable.js';

export const NOBODY = 65534;
const src = join(import.meta.dirname, '..', '..');
/** The built @toolbelt/tools, which the unprivileged processes import. */
export const dist = join(src, '..', 'dist');
const setpriv = trustedProgram('setpriv');

export interface AsNobody {
  cwd?: string;
  env?: Record<string, string | undefined>;
  timeout?: number;
  input?: string;
}

/** `file args` run as nobody (no groups); its output as text. */
export function asNobody(file: string, args: string[], opts: AsNobody = {}): SpawnSyncReturns<string> {
  return spawnSync(setpriv!, [`--reuid=${NOBODY}`, `--regid=${NOBODY}`, '--clear-groups', file, ...args], {
    encoding: 'utf8',
    cwd: opts.cwd ?? '/',
    env: opts.env ?? process.env,
    timeout: opts.timeout ?? 120_000,
    maxBuffer: 64 << 20,
    ...(opts.input !== undefined ? { input: opts.input } : {}),
  });
}

/** Why these tests cannot run here, or undefined. Unprivileged user namespaces are tried, not assumed. */
function cannotRun(): string | undefined {
  if (!sandboxWorks) return 'the sandbox does not work here';
  if (process.getuid?.() !== 0) return 'not root: the other sandbox tests already run as an unprivileged user';
  if (!setpriv) return 'setpriv (util-linux) is not installed';
  const r = asNobody(trustedProgram('bwrap') ?? 'bwrap', ['--unshare-user', '--ro-bind', '/', '/', '--', '/bin/true']);
  if (r.status !== 0) return `unprivileged user namespaces do not work here: ${r.stderr.trim()}`;
  return undefined;
}

/** Why the tests as nobody are skipped here (said once per file), or undefined when they run. */
const broken = cannotRun();
// A checkout below a directory others cannot pass through (say /root) is where it was put, not a
// broken sandbox: said loudly, and skipped even where the sandbox tests are required.
const unreachable = broken ? undefined : openCheckoutToNobody();
if (unreachable) console.warn(`toolbelt: the tests as an unprivileged user are skipped: ${unreachable}`);
export const whyNotAsNobody = broken ?? unreachable;
if (broken && process.env.TOOLBELT_REQUIRE_SANDBOX === '1' && process.getuid?.() === 0) {
  throw new Error(`TOOLBELT_REQUIRE_SANDBOX=1 but the tests as an unprivileged user cannot run: ${broken}`);
}

/** The first built module older than its source (in tools or core), or undefined: a stale dist would prove nothing. */
function staleModule(dir: string, out: string): string | undefined {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (name === '__fixtures__' || name.endsWith('.test.ts')) continue;
    if (statSync(path).isDirectory()) {
      const stale = staleModule(path, join(out, name));
      if (stale) return stale;
    } else if (name.endsWith('.ts') && !name.endsWith('.d.ts')) {
      const built = join(out, name.replace(/\.ts$/, '.js'));
      if (!existsSync(built) || statSync(built).mtimeMs < statSync(path).mtimeMs) return built;
    }
  }
  return undefined;
}

/** Throws, saying to build, when the package nobody runs is missing or older than its source. */
export function assertBuilt(): void {
  const core = join(src, '..', '..', 'core');
  const stale = staleModule(src, dist) ?? staleModule(join(core, 'src'), join(core, 'dist'));
  if (stale)
    throw new Error(
      `${stale} is missing or older than its source: run \`npm run build\` first (this test runs the built package as another user)`,
    );
}

/** Gives `path` and everything under it (links themselves, not their targets) to nobody. */
export function giveToNobody(path: string): void {
  const st = lstatSync(path);
  if (st.isSymbolicLink()) return void spawnSync('chown', ['-h', `${NOBODY}:${NOBODY}`, path]);
  chownSync(path, NOBODY, NOBODY);
  if (st.isDirectory()) for (const name of readdirSync(path)) giveToNobody(join(path, name));
}

/** A fresh scratch directory (under /var/tmp) that nobody owns. */
export function nobodyDir(prefix: string): string {
  const dir = scratchDir(prefix);
  giveToNobody(dir);
  return dir;
}

export interface CallSpec {
  /** The workspace root; the executor's guard holds it. */
  root: string;
  /** Tool sets from the built package: git, shell, lsp, fs, grep. */
  tools: ('git' | 'shell' | 'lsp' | 'fs' | 'grep')[];
  /** The policy mode (default yolo); in safe mode every request is approved. */
  mode?: 'safe' | 'auto-edit' | 'yolo';
  /** 'off': no sandbox; default: the sandbox toolbelt would use. */
  sandbox?: 'off';
  /** The `lsp` config section. */
  lsp?: Record<string, unknown>;
  /** More options for gitTools (JSON: guardConfig, config). */
  git?: Record<string, unknown>;
  calls: { tool: string; input: Record<string, unknown> }[];
}

export interface CallResult {
  tool: string;
  status: string;
  text: string;
  approvals: number;
}

/** Runs tool calls as nobody through the built package's executor (__fixtures__/nobody-calls.mjs). */
export function callsAsNobody(spec: CallSpec, env: Record<string, string | undefined> = process.env): CallResult[] {
  return runnerAsNobody<CallResult[]>(join(import.meta.dirname, 'nobody-calls.mjs'), spec, { cwd: spec.root, env });
}

/**
 * Runs the script `runner` as nobody with node, given the built package's dist directory and `spec`
 * as JSON; what it printed, parsed as JSON. Throws, saying to build, when dist is stale.
 */
export function runnerAsNobody<T>(runner: string, spec: unknown, opts: AsNobody = {}): T {
  assertBuilt();
  const r = asNobody(process.execPath, [runner, dist, JSON.stringify(spec)], opts);
  if (r.status !== 0) throw new Error(`${runner} failed as nobody (${r.status ?? r.signal}): ${r.stderr}`);
  return JSON.parse(r.stdout) as T;
}

export interface ConfinedRun {
  readOnly: boolean;
  network: boolean;
  script: string;
  /** Without the hardening flags (a control). */
  bare?: boolean;
  /** Without the hidden paths (a control). */
  unhidden?: boolean;
}

export interface ScriptsReport {
  uid: number;
  status: { ok: boolean; hardening?: string[] };
  results: { profile: string; code: number; stdout: string; stderr: string; out: string }[];
}

/** Scripts confined by the built package's Sandbox as nobody (__fixtures__/unprivileged.mjs), each run by bash. */
export function scriptsAsNobody(spec: {
  roots: string[];
  home: string;
  homes?: string[];
  runs: ConfinedRun[];
}): ScriptsReport {
  const report = runnerAsNobody<ScriptsReport>(join(import.meta.dirname, 'unprivileged.mjs'), spec, {
    cwd: spec.roots[0],
  });
  for (const x of report.results) x.out = x.stdout + x.stderr;
  return report;
}
