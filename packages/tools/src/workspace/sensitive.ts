// Files that hold secrets. Denied by default; a policy rule naming the path can allow one.
import { basename, sep } from 'node:path';

const SENSITIVE_DIRS = new Set(['.ssh', '.aws', '.gnupg', '.azure', '.kube', '.docker']);
const SENSITIVE_FILES = new Set([
  'credentials.json', 'credentials', '.netrc', '.npmrc', '.pypirc', '.pgpass', '.git-credentials',
  'id_rsa', 'id_dsa', 'id_ecdsa', 'id_ed25519', 'secrets.json', 'service-account.json',
]);
const SENSITIVE_EXT = /\.(pem|key|p12|pfx|keystore|jks)$/i;
// Templates of .env files are meant to be committed and hold no secrets.
const ENV_TEMPLATE = /^\.env\.(example|sample|template|dist)$/i;

/** Why a path is sensitive, or undefined when it is not. */
export function sensitiveReason(absPath: string, access: 'read' | 'write' | 'list' | 'delete'): string | undefined {
  const parts = absPath.split(sep).filter(Boolean);
  const name = basename(absPath);
  for (const part of parts.slice(0, -1)) {
    if (SENSITIVE_DIRS.has(part)) return `it is inside a ${part}/ directory, which holds credentials`;
  }
  if (SENSITIVE_DIRS.has(name) && access !== 'list') return `${name}/ holds credentials`;
  if (/^\.env($|\.)/i.test(name) && !ENV_TEMPLATE.test(name)) return `${name} usually holds secrets`;
  if (SENSITIVE_FILES.has(name.toLowerCase())) return `${name} usually holds credentials`;
  if (SENSITIVE_EXT.test(name)) return `${name} looks like a private key or certificate store`;
  if ((access === 'write' || access === 'delete') && parts.includes('.git')) return 'it is inside .git; change the repository with git tools instead';
  return undefined;
}
