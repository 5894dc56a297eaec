// `toolbelt trust`: the person says the workspace config is theirs, as it is now. Records the sha256
// of its bytes (and a copy) in the user's state directory; `--revoke` forgets it, `--list` lists them.
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { policyOptionsFrom } from '@toolbelt/core';
import { workspaceOptionsFrom } from '@toolbelt/tools';
import { EXIT, UsageError, type Command, type Io } from '../command.js';
import { CONFIG_FILE, parseConfig } from '../config/load.js';
import { recordTrust, TRUST_ENV } from '../config/trust.js';
import { configKey, rootHolding, sha256, TrustStore } from '../config/trust-store.js';
import { stateHome } from '../state-paths.js';

const USAGE = `Usage: toolbelt trust [--root DIR] [--config FILE] [--revoke | --list]

A config inside a workspace root (${CONFIG_FILE}, or a --config file there) takes
effect only once you trust it: an agent working in the workspace can write it. Review the
file, then run \`toolbelt trust\`. It records the sha256 of the file's exact bytes, and a
copy, in $XDG_STATE_HOME/toolbelt/trusted.json (default ~/.local/state/toolbelt). Any later
change makes toolbelt refuse the file, showing the change, until you trust it again.

  --root DIR     the workspace root (default: the current directory)
  --config FILE  trust FILE instead of <root>/${CONFIG_FILE}
  --revoke       forget the trust in the config
  --list         list the trusted configs and whether each is unchanged

In CI, ${TRUST_ENV}=<sha256> trusts the config with exactly those bytes instead.`;

function targetOf(values: Record<string, unknown>): { path: string; roots: string[] } {
  const roots = ((values.root as string[] | undefined)?.length ? (values.root as string[]) : [process.cwd()]).map((r) =>
    resolve(r),
  );
  for (const r of roots) if (!existsSync(r)) throw new UsageError(`--root ${r} does not exist`);
  return { path: values.config ? resolve(values.config as string) : join(roots[0], CONFIG_FILE), roots };
}

function list(io: Io): number {
  const store = new TrustStore(stateHome(process.env));
  const entries = Object.entries(store.entries());
  if (!entries.length) io.stdout.write(`No trusted configs in ${store.file}.\n`);
  for (const [path, e] of entries) {
    const now = existsSync(path) ? (sha256(readFileSync(path)) === e.sha256 ? 'trusted' : 'changed') : 'missing';
    io.stdout.write(`${now.padEnd(8)} ${path}  sha256 ${e.sha256.slice(0, 12)}  ${e.trustedAt}\n`);
  }
  return EXIT.ok;
}

function revoke(path: string, io: Io): number {
  const gone = new TrustStore(stateHome(process.env)).revoke(configKey(path));
  io.stdout.write(gone ? `${path} is no longer trusted.\n` : `${path} was not trusted.\n`);
  return EXIT.ok;
}

function trust(path: string, roots: string[], io: Io): number {
  if (!existsSync(path)) throw new UsageError(`${path} does not exist; \`toolbelt init\` writes a starting config`);
  const bytes = readFileSync(path);
  // A file toolbelt would refuse to read is not worth trusting: say what is wrong first.
  const config = parseConfig(path, bytes.toString('utf8'));
  const allRoots = workspaceOptionsFrom(config.workspace, roots).roots;
  const { entry, previous, diff } = recordTrust(path, bytes, allRoots, process.env);
  const sandbox = config.sandbox?.mode ?? 'auto';
  const same = previous?.sha256 === entry.sha256 ? ' (unchanged)' : '';
  io.stdout.write(
    `trusted ${path}${same}: sha256 ${entry.sha256.slice(0, 12)}, mode "${policyOptionsFrom(config).mode}", sandbox "${sandbox}"\n`,
  );
  if (diff) io.stdout.write(`${diff}\n`);
  if (!rootHolding(path, allRoots))
    io.stdout.write('(it is outside the workspace roots, where toolbelt uses a config without trust)\n');
  return EXIT.ok;
}

export const trustCommand: Command = {
  name: 'trust',
  usage: USAGE,
  options: {
    root: { type: 'string', multiple: true },
    config: { type: 'string' },
    revoke: { type: 'boolean' },
    list: { type: 'boolean' },
  },
  async run(values, _pos, io) {
    if (values.revoke && values.list) throw new UsageError('pass --revoke or --list, not both');
    if (values.list) return list(io);
    const { path, roots } = targetOf(values);
    if (values.revoke) return revoke(path, io);
    return trust(path, roots, io);
  },
};
