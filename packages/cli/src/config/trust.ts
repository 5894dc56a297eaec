// A config inside a workspace root is trusted only once a person says so (`toolbelt trust`), as
// direnv's `allow`: an agent working in the workspace can write the file (a patch applied, an archive
// unpacked, a file moved into its place), and the next start would run with the agent's policy.
// Trust is the sha256 of the file's exact bytes; any change refuses the file until it is trusted again.
import { resolve } from 'node:path';
import { UsageError } from '../command.js';
import { stateHome } from '../state-paths.js';
import { lineDiff } from './line-diff.js';
import { CONFIG_FILE } from './load.js';
import { configKey, rootHolding, sha256, TrustStore, type TrustEntry } from './trust-store.js';

type Env = Record<string, string | undefined>;

/**
 * The sha256 of the one config this process may use without `toolbelt trust`: for automation whose
 * environment the user sets (CI), pinning the reviewed bytes. Read from the real environment only,
 * never from the workspace's .env, which an agent can write.
 */
export const TRUST_ENV = 'TOOLBELT_TRUST_CONFIG';

export type TrustState =
  /** Outside every root: an agent cannot write it, so it needs no trust. */
  | { state: 'outside' }
  | { state: 'trusted'; by: 'store' | 'env'; sha256: string; at?: string }
  | { state: 'untrusted'; sha256: string }
  | { state: 'changed'; sha256: string; was: TrustEntry; diff: string | undefined }
  | { state: 'pinned-other'; sha256: string; pinned: string }
  /** toolbelt's state directory is inside a root, so a trust recorded there could be the agent's. */
  | { state: 'store-in-root'; store: string; root: string };

/** The trust store of this environment, or why it cannot be used with these roots. */
function trustStore(
  roots: readonly string[],
  env: Env,
): { store: TrustStore } | { store?: undefined; dir: string; root: string } {
  const dir = stateHome(env);
  const root = rootHolding(dir, roots);
  return root ? { dir, root } : { store: new TrustStore(dir) };
}

export function trustState(path: string, bytes: Uint8Array, roots: readonly string[], env: Env): TrustState {
  if (!rootHolding(path, roots)) return { state: 'outside' };
  const sha = sha256(bytes);
  const pinned = env[TRUST_ENV]?.trim().toLowerCase();
  if (pinned)
    return pinned === sha
      ? { state: 'trusted', by: 'env', sha256: sha }
      : { state: 'pinned-other', sha256: sha, pinned };
  const where = trustStore(roots, env);
  if (!where.store) return { state: 'store-in-root', store: where.dir, root: where.root };
  const key = configKey(path);
  const was = where.store.get(key);
  if (!was) return { state: 'untrusted', sha256: sha };
  if (was.sha256 === sha) return { state: 'trusted', by: 'store', sha256: sha, at: was.trustedAt };
  const copy = where.store.copy(key);
  const diff =
    copy &&
    lineDiff(copy.toString('utf8'), Buffer.from(bytes).toString('utf8'), `trusted copy (${was.trustedAt})`, path);
  return { state: 'changed', sha256: sha, was, diff: diff || undefined };
}

export const usable = (t: TrustState): boolean => t.state === 'outside' || t.state === 'trusted';

const quote = (s: string): string => (/^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replaceAll("'", `'\\''`)}'`);

/** The command that trusts `path`, as short as it can be from the current directory. */
export function trustCommand(path: string, root: string): string {
  if (resolve(path) !== resolve(root, CONFIG_FILE)) return `toolbelt trust --config ${quote(path)}`;
  return resolve(root) === process.cwd() ? 'toolbelt trust' : `toolbelt trust --root ${quote(root)}`;
}

/** A workspace config toolbelt will not use; main() prints the message and exits 2. */
export class UntrustedConfigError extends UsageError {
  override name = 'UntrustedConfigError';
}

const WHY = 'an agent working in the workspace can write this file';

/** What to tell the person about a config that is not used, and how to fix it; undefined when it is used. */
export function refusal(path: string, t: TrustState, root: string): string | undefined {
  const fix = trustCommand(path, root);
  switch (t.state) {
    case 'untrusted':
      return `${path} is not trusted, so toolbelt will not use it (${WHY}). Review it, then run \`${fix}\`; or pass --config FILE from outside the workspace.`;
    case 'changed':
      return [
        `${path} changed since you trusted it (${t.was.trustedAt}), so toolbelt will not use it (${WHY}).`,
        ...(t.diff ? [t.diff] : []),
        `Review the change, then run \`${fix}\`.`,
      ].join('\n');
    case 'pinned-other':
      return `${path} has sha256 ${t.sha256}, not the ${t.pinned} that ${TRUST_ENV} pins, so toolbelt will not use it (${WHY}). Review it, then set ${TRUST_ENV} to its sha256, or unset it and run \`${fix}\`.`;
    case 'store-in-root':
      return `${path} cannot be trusted here: toolbelt's state directory ${t.store} is inside the workspace root ${t.root}, where an agent can write. Set XDG_STATE_HOME to a directory outside every root, or pass --config FILE from outside the workspace.`;
    default:
      return undefined;
  }
}

/** Records `bytes` as the trusted content of `path`; refuses when the store is inside a root. */
export function recordTrust(
  path: string,
  bytes: Uint8Array,
  roots: readonly string[],
  env: Env,
): { entry: TrustEntry; previous: TrustEntry | undefined; diff: string } {
  const where = trustStore(roots, env);
  if (!where.store)
    throw new UsageError(
      `cannot keep trust in ${where.dir}: it is inside the workspace root ${where.root}, where an agent can write. Set XDG_STATE_HOME to a directory outside every root.`,
    );
  const key = configKey(path);
  const previous = where.store.get(key);
  const copy = previous && previous.sha256 !== sha256(bytes) ? where.store.copy(key) : undefined;
  const diff = copy
    ? lineDiff(
        copy.toString('utf8'),
        Buffer.from(bytes).toString('utf8'),
        `trusted copy (${previous!.trustedAt})`,
        path,
      )
    : '';
  return { entry: where.store.trust(key, bytes), previous, diff };
}
