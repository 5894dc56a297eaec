// Files that hold secrets. Denied by default; a policy rule naming the path can allow one, except
// toolbelt's own files, which no rule opens.
// Checked on the path below the workspace root, so where the root itself sits does not matter.
import { basename, sep } from 'node:path';

const SENSITIVE_DIRS = new Set(['.ssh', '.aws', '.gnupg', '.azure', '.kube', '.docker', '.password-store']);
const SENSITIVE_FILES = new Set([
  'credentials.json',
  'credentials',
  '.netrc',
  '.npmrc',
  '.pypirc',
  '.pgpass',
  '.git-credentials',
  '.htpasswd',
  'id_rsa',
  'id_dsa',
  'id_ecdsa',
  'id_ed25519',
  'secrets.json',
  'secrets.yaml',
  'secrets.yml',
  'service-account.json',
  '.envrc',
  'kubeconfig',
  '.vault-token',
  '.my.cnf',
  '.s3cfg',
  '.boto',
  '.dockercfg',
]);
// SSH private keys under their usual names and variants (id_rsa_work, id_ed25519_sk, id_rsa-cert.pub).
const SSH_KEY = /^id_(rsa|dsa|ecdsa|ed25519)/i;
// Credentials kept under a name of one's own: prod.credentials, staging.kubeconfig.
const CREDENTIALS_EXT = /\.(credentials|kubeconfig)$/i;
const SENSITIVE_EXT = /\.(pem|key|p12|pfx|keystore|jks)$/i;
// Templates of .env files are meant to be committed and hold no secrets.
const ENV_TEMPLATE = /^\.env\.(example|sample|template|dist)$/i;
const VCS_DIRS = new Set(['.git', '.hg', '.svn']);
// toolbelt's own files: the config (tokens, rules) and .toolbelt/ (saved approvals, the execution
// log, Google sign-in tokens, maybe the gateway database). An agent that could read them could take another agent's
// token or calls; one that could write them could approve itself.
const OWN_DIR = '.toolbelt';
const OWN_CONFIG = 'toolbelt.config.json';

/**
 * Why a path is one of toolbelt's own files by its name, or undefined. Only listing is let through
 * (names are no secret); nothing, not even a policy rule, lets an agent read or change them.
 */
export function ownFileReason(relPath: string, access: 'read' | 'write' | 'list' | 'delete'): string | undefined {
  if (access === 'list') return undefined;
  const lower = relPath.toLowerCase();
  // Cheap first: most paths name neither.
  if (!lower.includes(OWN_DIR) && !lower.endsWith(OWN_CONFIG)) return undefined;
  const parts = lower.split(sep).filter(Boolean);
  if (parts[parts.length - 1] === OWN_CONFIG)
    return "it is toolbelt's own config, which may hold tokens; only the user reads or changes it";
  if (parts.includes(OWN_DIR))
    return "it is toolbelt's own state (saved approvals, the execution log, sign-in tokens, the gateway database); only the user reads or changes it";
  return undefined;
}

/**
 * Whether a directory of this name holds secrets as a whole (`.ssh`, `.aws`…, toolbelt's
 * `.toolbelt`). Names of secret files do not count for directories: a `credentials/` module or a
 * virtualenv in `.env/` is no secret.
 */
export function secretDirName(name: string): boolean {
  const lower = name.toLowerCase();
  return SENSITIVE_DIRS.has(lower) || lower === OWN_DIR;
}

/** Why a path is sensitive, and the name an allow rule's path must spell out to open it. */
export interface Secret {
  reason: string;
  /** `.ssh`, `.env`, `id_rsa`, `.pem`: a rule for `src/**` does not name `src/.env`; one for `src/.env` or `.env*` does. */
  name: string;
}

/**
 * Why a path is sensitive, or undefined when it is not. `relPath` is below the workspace root
 * ('' for the root itself); an absolute path is checked whole. Includes toolbelt's own files.
 */
export function sensitiveReason(relPath: string, access: 'read' | 'write' | 'list' | 'delete'): string | undefined {
  return sensitiveMatch(relPath, access)?.reason;
}

/**
 * True for every path the rules below may match (and some more): a segment starting with a dot
 * (the secret directories, dot files, .env, VCS and toolbelt's own folder) or with `id_`, the
 * secret file names, the extensions and toolbelt's config. Searches check every hit, and most
 * paths are none of these: they skip the splitting and the rules.
 */
const MAYBE_SENSITIVE =
  /(^|[\\/])(\.|id_)|credentials|secrets\.|service-account\.json|kubeconfig|\.(pem|key|p12|pfx|keystore|jks)$|toolbelt\.config\.json$/i;

/** Like sensitiveReason, with the name that marks the path as a secret. */
export function sensitiveMatch(relPath: string, access: 'read' | 'write' | 'list' | 'delete'): Secret | undefined {
  if (!MAYBE_SENSITIVE.test(relPath)) return undefined;
  const parts = relPath.split(sep).filter(Boolean);
  if (parts.length === 0) return undefined;
  const name = basename(relPath);
  const lower = parts.map((p) => p.toLowerCase());
  for (const part of lower.slice(0, -1)) {
    if (SENSITIVE_DIRS.has(part))
      return { reason: `it is inside a ${part}/ directory, which holds credentials`, name: part };
  }
  const last = lower[lower.length - 1];
  if (SENSITIVE_DIRS.has(last)) return { reason: `${name}/ holds credentials`, name: last };
  if (/^\.env($|\.)/i.test(name) && !ENV_TEMPLATE.test(name))
    return { reason: `${name} usually holds secrets`, name: '.env' };
  if (SENSITIVE_FILES.has(last)) return { reason: `${name} usually holds credentials`, name: last };
  const key = SSH_KEY.exec(name);
  if (key) return { reason: `${name} looks like an SSH key`, name: key[0].toLowerCase() };
  const cred = CREDENTIALS_EXT.exec(name);
  if (cred) return { reason: `${name} usually holds credentials`, name: cred[0].toLowerCase() };
  const ext = SENSITIVE_EXT.exec(name);
  if (ext) return { reason: `${name} looks like a private key or certificate store`, name: ext[0].toLowerCase() };
  const own = ownFileReason(relPath, access);
  if (own) return { reason: own, name: last };
  if ((access === 'write' || access === 'delete') && lower.some((p) => VCS_DIRS.has(p))) {
    return {
      reason: 'it is inside version-control internals; change the repository with git tools instead',
      name: lower.find((p) => VCS_DIRS.has(p))!,
    };
  }
  return undefined;
}
