// Run by the sandbox tests as an unprivileged user (setpriv): confines scripts with the built
// @toolbelt/tools exactly as toolbelt would for that user, runs them, and prints what they said.
// argv[2]: the tools package's dist directory; argv[3]: JSON { roots, home, runs: [{ readOnly,
// network, script, bare?, unhidden? }], homes? } — `bare` drops the hardening flags, `unhidden` the
// hidden paths (the tests' controls); `homes` is where other users' homes are.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const [dist, json] = process.argv.slice(2);
const { Sandbox, sandboxSettings, execInvocation, probeSandbox } = await import(
  pathToFileURL(join(dist, 'index.js')).href
);
const { bwrapInvocation } = await import(pathToFileURL(join(dist, 'sandbox', 'bwrap.js')).href);
const { roots, home, homes, runs } = JSON.parse(json);

const status = await probeSandbox('bwrap');
const sandbox = new Sandbox(sandboxSettings(undefined, { env: { HOME: home } }), homes ? { homes } : {});
const results = [];
for (const run of runs) {
  const c = await sandbox.confine({ roots, cwd: roots[0], readOnly: run.readOnly, network: run.network });
  const inner = execInvocation('/bin/bash', ['-c', run.script]);
  const profile = {
    ...c.bwrap.profile,
    ...(run.bare ? { hardening: [] } : {}),
    ...(run.unhidden ? { hidden: [] } : {}),
  };
  const inv = run.bare || run.unhidden ? bwrapInvocation(c.bwrap.path, profile, inner) : c.wrap(inner);
  const r = spawnSync(inv.file, inv.args, { encoding: 'utf8', cwd: roots[0] });
  results.push({ profile: c.profile, code: r.status, stdout: r.stdout, stderr: r.stderr });
}
process.stdout.write(JSON.stringify({ uid: process.getuid(), status, results }));
