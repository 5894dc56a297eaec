// Where a gateway token comes from, and the one form the gateway keeps of it: its SHA-256 digest.
// A token entry gives the token exactly one way:
//   { "tokenHash": "sha256:<64 hex digits>", ... }  the hash only (`toolbelt token new` prints one)
//   { "tokenFile": "/abs/path", ... }               a file outside the workspace holding the token
//                                                   (or its "sha256:" hash), trailing newline ignored
//   { "tokenEnv": "VAR", ... }                      an environment variable holding the token
//   { "token": "...", ... }                         the token itself (hashed at start)
// TOOLBELT_GATEWAY_TOKEN (the token) and TOOLBELT_GATEWAY_TOKEN_FILE (a file, as tokenFile) each add
// an admin token.
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { isAbsolute } from 'node:path';

export class AuthConfigError extends Error {}

const MIN_TOKEN_LENGTH = 16;
const HASH_FORM = /^sha256:([0-9a-f]{64})$/i;
// A token file holds one token; anything bigger is the wrong file.
const MAX_FILE_BYTES = 4096;

export interface TokenSource {
  token?: string | undefined;
  tokenHash?: string | undefined;
  tokenFile?: string | undefined;
  tokenEnv?: string | undefined;
}

const SOURCES = ['tokenHash', 'tokenFile', 'tokenEnv', 'token'] as const;

/** The 32-byte digest every token is compared by. */
export function digestOf(token: string): Buffer {
  return createHash('sha256').update(token, 'utf8').digest();
}

/** What to put in config as "tokenHash". */
export function hashToken(token: string): string {
  return `sha256:${digestOf(token).toString('hex')}`;
}

function plainDigest(token: string, label: string, from: string): Buffer {
  if (HASH_FORM.test(token))
    throw new AuthConfigError(
      `${label}: the token ${from} looks like a hash; put a hash under "tokenHash" (or in a tokenFile), never as the token itself`,
    );
  if (token.length < MIN_TOKEN_LENGTH)
    throw new AuthConfigError(
      `${label}: the token ${from} is shorter than ${MIN_TOKEN_LENGTH} characters; use a long random one (toolbelt token new)`,
    );
  return digestOf(token);
}

function hashDigest(hash: string, label: string): Buffer {
  const m = HASH_FORM.exec(hash);
  if (!m)
    throw new AuthConfigError(
      `${label}: tokenHash must be "sha256:" followed by 64 hex digits, as printed by toolbelt token new`,
    );
  return Buffer.from(m[1], 'hex');
}

function fileDigest(path: string, label: string): Buffer {
  if (!isAbsolute(path))
    throw new AuthConfigError(
      `${label}: tokenFile must be an absolute path (keep the file outside the workspace), not ${JSON.stringify(path)}`,
    );
  let text: string;
  try {
    const st = statSync(path);
    if (!st.isFile()) throw new AuthConfigError(`${label}: tokenFile ${path} is not a regular file`);
    if (st.size > MAX_FILE_BYTES)
      throw new AuthConfigError(
        `${label}: tokenFile ${path} is ${st.size} bytes; it should hold one token (or its sha256: hash)`,
      );
    text = readFileSync(path, 'utf8').trim();
  } catch (err) {
    if (err instanceof AuthConfigError) throw err;
    const e = err as NodeJS.ErrnoException;
    throw new AuthConfigError(`${label}: cannot read tokenFile ${path}: ${e.code ?? e.message}`);
  }
  if (!text)
    throw new AuthConfigError(`${label}: tokenFile ${path} is empty; write the token (or its sha256: hash) into it`);
  return HASH_FORM.test(text) ? hashDigest(text, label) : plainDigest(text, label, `in ${path}`);
}

/** The digest of the token an entry names, read from wherever it says; AuthConfigError says what to fix. */
export function tokenDigest(spec: TokenSource, env: Record<string, string | undefined>, label: string): Buffer {
  const given = SOURCES.filter((k) => spec[k] !== undefined);
  if (given.length === 0) {
    throw new AuthConfigError(
      `${label}: no token; set one of "tokenHash" (from toolbelt token new), "tokenFile", "tokenEnv" or "token"`,
    );
  }
  if (given.length > 1)
    throw new AuthConfigError(
      `${label}: set only one of ${given.map((k) => `"${k}"`).join(', ')}; each is a whole way of giving the token`,
    );
  if (spec.tokenHash !== undefined) return hashDigest(spec.tokenHash, label);
  if (spec.tokenFile !== undefined) return fileDigest(spec.tokenFile, label);
  if (spec.tokenEnv !== undefined) {
    const value = env[spec.tokenEnv];
    if (!value)
      throw new AuthConfigError(
        `${label}: the environment variable ${spec.tokenEnv} is empty or unset; set the environment variable ${spec.tokenEnv} to the token`,
      );
    return plainDigest(value, label, `in ${spec.tokenEnv}`);
  }
  return plainDigest(spec.token!, label, 'given');
}
