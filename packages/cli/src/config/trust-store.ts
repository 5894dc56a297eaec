// Which workspace configs the user trusts: the sha256 of each file's exact bytes, by where the file
// is, and a copy of those bytes (to show later what changed). Kept in the per-user state directory,
// outside every workspace: an agent's file tools refuse it and sandboxed commands see it empty.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, realpathSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { UsageError } from '../command.js';

export interface TrustEntry {
  sha256: string;
  /** ISO time of the `toolbelt trust` that recorded it. */
  trustedAt: string;
}

const TRUST_FILE = 'trusted.json';

export const sha256 = (bytes: Uint8Array | string): string => createHash('sha256').update(bytes).digest('hex');

/** The real path of `path`, resolving as much of it as exists (a file not made yet keeps its name). */
function realish(path: string): string {
  const abs = resolve(path);
  try {
    return realpathSync.native(abs);
  } catch {
    const parent = dirname(abs);
    return parent === abs ? abs : join(realish(parent), basename(abs));
  }
}

/**
 * A config as trust knows it: the real path of its directory and its own name. A link put in its
 * place is judged by the bytes it leads to, against what was trusted at this place.
 */
export const configKey = (path: string): string => join(realish(dirname(resolve(path))), basename(path));

/**
 * The first of `roots` that holds `path` (or is it), comparing real paths; undefined when none does.
 * A link counts as in a root when it is there or leads there: either way an agent can change what it reads.
 */
export function rootHolding(path: string, roots: readonly string[]): string | undefined {
  const places = [...new Set([realish(path), configKey(path)])];
  return roots.find((root) => {
    const real = realish(root);
    return places.some((place) => {
      const rel = relative(real, place);
      return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
    });
  });
}

/** `<dir>/trusted.json` ({ "configs": { path: { sha256, trustedAt } } }) and `<dir>/trusted/` (the copies). */
export class TrustStore {
  readonly file: string;
  private readonly copies: string;

  constructor(readonly dir: string) {
    this.file = join(dir, TRUST_FILE);
    this.copies = join(dir, 'trusted');
  }

  entries(): Record<string, TrustEntry> {
    if (!existsSync(this.file)) return {};
    try {
      const data = JSON.parse(readFileSync(this.file, 'utf8')) as { configs?: Record<string, TrustEntry> };
      return data && typeof data.configs === 'object' && data.configs !== null ? data.configs : {};
    } catch (err) {
      throw new UsageError(
        `cannot read ${this.file}: ${(err as Error).message}. Delete it, then run \`toolbelt trust\` for each config again.`,
      );
    }
  }

  get(key: string): TrustEntry | undefined {
    const entry = this.entries()[key];
    return entry && typeof entry.sha256 === 'string' ? entry : undefined;
  }

  /** The bytes last trusted at `key`, when their copy is still there. */
  copy(key: string): Buffer | undefined {
    try {
      return readFileSync(this.copyFile(key));
    } catch {
      return undefined;
    }
  }

  trust(key: string, bytes: Uint8Array): TrustEntry {
    const entry = { sha256: sha256(bytes), trustedAt: new Date().toISOString() };
    mkdirSync(this.copies, { recursive: true, mode: 0o700 });
    writeAtomic(this.copyFile(key), bytes);
    this.write({ ...this.entries(), [key]: entry });
    return entry;
  }

  /** Forgets `key`; false when it was not trusted. */
  revoke(key: string): boolean {
    const all = this.entries();
    if (!(key in all)) return false;
    delete all[key];
    this.write(all);
    rmSync(this.copyFile(key), { force: true });
    return true;
  }

  private copyFile(key: string): string {
    return join(this.copies, `${sha256(key).slice(0, 16)}.json`);
  }

  private write(configs: Record<string, TrustEntry>): void {
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    writeAtomic(this.file, JSON.stringify({ version: 1, configs }, null, 2) + '\n');
  }
}

function writeAtomic(file: string, data: Uint8Array | string): void {
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, data, { mode: 0o600 });
  renameSync(tmp, file);
}
