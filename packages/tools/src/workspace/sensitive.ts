// Files that hold secrets. Denied by default; a policy rule naming the path can allow one.
// Checked on the path below the workspace root, so where the root itself sits does not matter.
import { basename, sep } from 'node:path';

const SENSITIVE_DIRS = new Set(['.ssh', '.aws', '.gnupg', '.azure', '.kube', '.docker', '.password-store']);
const SENSITIVE_FILES = new Set([
  'credentials.json', 'credentials', '.netrc', '.npmrc', '.pypirc', '.pgpass', '.git-credentials', '.htpasswd',
  'id_rsa', 'id_dsa', 'id_ecdsa', 'id_ed25519', 'secrets.json', 'secrets.yaml', 'secrets.yml', 'service-account.json',
]);
const SENSITIVE_EXT = /\.(pem|key|p12|pfx|keystore|jks)$/i;
// Templates of .env files are meant to be committed and hold no secrets.
const ENV_TEMPLATE = /^\.env\.(example|sample|template|dist)$/i;
const VCS_DIRS = new Set(['.git', '.hg', '.svn']);
// toolbelt's own policy: an agent that could write these could approve itself.
const POLICY_DIR = '.toolbelt';
const POLICY_FILE = 'toolbelt.config.json';

/**
 * Why a path is sensitive, or undefined when it is not. `relPath` is below the workspace root
 * ('' for the root itself); an absolute path is checked whole.
 */
export function sensitiveReason(relPath: string, access: 'read' | 'write' | 'list' | 'delete'): string | undefined {
  const parts = relPath.split(sep).filter(Boolean);
  if (parts.length === 0) return undefined;
  const name = basename(relPath);
  const lower = parts.map((p) => p.toLowerCase());
  for (const part of lower.slice(0, -1)) {
    if (SENSITIVE_DIRS.has(part)) return `it is inside a ${part}/ directory, which holds credentials`;
  }
  const last = lower[lower.length - 1];
  if (SENSITIVE_DIRS.has(last)) return `${name}/ holds credentials`;
  if (/^\.env($|\.)/i.test(name) && !ENV_TEMPLATE.test(name)) return `${name} usually holds secrets`;
  if (SENSITIVE_FILES.has(last)) return `${name} usually holds credentials`;
  if (SENSITIVE_EXT.test(name)) return `${name} looks like a private key or certificate store`;
  if (access === 'write' || access === 'delete') {
    if (lower.some((p) => VCS_DIRS.has(p))) return 'it is inside version-control internals; change the repository with git tools instead';
    if (lower.includes(POLICY_DIR) || last === POLICY_FILE) return "it holds toolbelt's own policy and approvals, which only the user changes";
  }
  return undefined;
}
