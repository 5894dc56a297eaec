// Remote tool names as registry names: `server__tool`, within ^[A-Za-z0-9_-]{1,64}$, and never two
// tools under one name. Bad characters become `_`; a name that is too long or would collide gets a
// short hash of the original instead, so a remote tool keeps its name across refreshes and restarts.
import { createHash } from 'node:crypto';
import { TOOL_NAME } from '@toolbelt/core';

const MAX = 64;
const SEPARATOR = '__';

/**
 * The name the policy judges a read of this server's resources by: `server__resources.read`. No
 * tool can have it (a tool name has no "."), so a rule for one of the server's tools never covers
 * reads by accident; `server__*` matches it as it matches the server's tools.
 */
export function resourceReadName(server: string): string {
  return `${sanitize(server)}${SEPARATOR}resources.read`;
}

/** Letters, digits, `_` and `-` only; anything else becomes `_`. */
export function sanitize(part: string): string {
  const clean = part.replace(/[^A-Za-z0-9_-]/g, '_');
  return clean.length ? clean : '_';
}

function shortHash(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 8);
}

function withHash(base: string, original: string): string {
  const suffix = `_${shortHash(original)}`;
  return base.slice(0, MAX - suffix.length) + suffix;
}

/**
 * Registry names for one server's tools, in the order given. `taken` holds names already used by
 * other tools (built-ins, other servers); the result never reuses one of them.
 */
export function proxyNames(
  server: string,
  tools: readonly string[],
  taken: (name: string) => boolean = () => false,
): string[] {
  const prefix = sanitize(server) + SEPARATOR;
  const used = new Set<string>();
  const out: string[] = new Array(tools.length);
  const free = (name: string) => !used.has(name) && !taken(name);
  // First pass: names that need no change keep them, so a clean name never loses to a mangled one.
  const pending: number[] = [];
  tools.forEach((tool, i) => {
    const plain = prefix + tool;
    if (TOOL_NAME.test(plain) && free(plain)) {
      out[i] = plain;
      used.add(plain);
    } else pending.push(i);
  });
  for (const i of pending) {
    const original = `${server}${SEPARATOR}${tools[i]}`;
    const clean = prefix + sanitize(tools[i]);
    let name = clean.length <= MAX && free(clean) && clean !== prefix + tools[i] ? clean : withHash(clean, original);
    for (let n = 2; !free(name); n++) name = withHash(clean, `${original}#${n}`);
    out[i] = name;
    used.add(name);
  }
  return out;
}

/** Simple globs for allowedTools / excludeTools: `*` matches any run of characters. */
export function globMatch(pattern: string, name: string): boolean {
  if (!pattern.includes('*')) return pattern === name;
  const re = new RegExp(
    `^${pattern
      .split('*')
      .map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}$`,
  );
  return re.test(name);
}
