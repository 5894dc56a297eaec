// Programs toolbelt itself starts (bash, git, bwrap, rg, language servers) come from fixed places.
// The workspace may have been written by the agent, so a program is never taken from a PATH entry
// the agent could have filled: a relative entry, one with a node_modules segment (`npx toolbelt`
// puts the workspace's node_modules/.bin first), or one inside the directory toolbelt started in
// or a workspace root. Each name is resolved once per process and kept, so a file planted later
// changes nothing; `toolbelt doctor` shows what was chosen.
import { accessSync, constants, realpathSync, statSync } from 'node:fs';
import { delimiter, isAbsolute, join, resolve, sep } from 'node:path';

export interface ProgramChoice {
  /** The absolute path run, or undefined when no fixed place holds it. */
  path: string | undefined;
  /** PATH entries passed over because the workspace could have written them. */
  skipped: string[];
}

const chosen = new Map<string, ProgramChoice>();
/** Directories the agent can write: the start directory, and every workspace root registered. */
const untrusted = new Set<string>();

function safeReal(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return resolve(p);
  }
}

function under(path: string, dir: string): boolean {
  return path === dir || path.startsWith(dir.endsWith(sep) ? dir : dir + sep);
}

/** Marks workspace roots as places programs never come from (call before the first lookup). */
export function untrustedProgramDirs(roots: readonly string[]): void {
  // A root of `/` would rule out every program; the agent writing there is the user's choice.
  for (const r of roots) if (safeReal(r) !== sep) untrusted.add(safeReal(r));
}
untrustedProgramDirs([process.cwd()]);

/** Why a PATH entry is not a fixed place, or undefined when it is one. */
export function untrustedDirReason(dir: string): string | undefined {
  if (!isAbsolute(dir)) return 'relative';
  if (dir.split(sep).includes('node_modules')) return 'inside node_modules';
  const real = safeReal(dir);
  for (const u of untrusted) if (under(real, u) || under(dir, u)) return `inside the workspace (${u})`;
  return undefined;
}

function executable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

function lookup(name: string, pathVar: string): ProgramChoice {
  const skipped: string[] = [];
  if (name.includes('/')) {
    // A path the user configured (outside the workspace: the config itself is trusted) is taken as given.
    return { path: executable(name) ? resolve(name) : undefined, skipped };
  }
  for (const dir of pathVar.split(delimiter)) {
    if (!dir) continue;
    const file = join(dir, name);
    const why = untrustedDirReason(dir);
    if (why) {
      if (executable(file)) skipped.push(`${dir} (${why})`);
      continue;
    }
    if (!executable(file)) continue;
    // A link from a fixed place into the workspace is the workspace's program.
    const real = safeReal(file);
    const inside = [...untrusted].find((u) => under(real, u));
    if (inside || real.split(sep).includes('node_modules')) {
      skipped.push(`${dir} (links into ${inside ?? 'node_modules'})`);
      continue;
    }
    return { path: file, skipped };
  }
  return { path: undefined, skipped };
}

/** The program `name` from a fixed place: resolved on the first call, the same answer after. */
export function programChoice(name: string, pathVar = process.env.PATH ?? ''): ProgramChoice {
  let hit = chosen.get(name);
  if (!hit) {
    hit = lookup(name, pathVar);
    chosen.set(name, hit);
  }
  return hit;
}

/** The absolute path of `name` from a fixed place, or undefined. */
export function trustedProgram(name: string): string | undefined {
  return programChoice(name).path;
}

/** The absolute path of `name`, or `name` itself so that spawning fails with ENOENT and its usual message. */
export function programPath(name: string): string {
  return trustedProgram(name) ?? name;
}

/** Every choice made so far (for `toolbelt doctor`). */
export function programChoices(): ReadonlyMap<string, ProgramChoice> {
  return chosen;
}

/** Forgets every choice (tests only). */
export function resetProgramChoices(): void {
  chosen.clear();
}
