// The environment a command runs in: no prompts, no pagers, and none of the secrets this process
// holds — toolbelt's own tokens always removed, other key-like variables (`*_TOKEN`, `*_KEY`,
// `*_SECRET`, `*_PASSWORD`) removed unless the config passes them through. A command that reads
// the variables it was given (`env`, `printenv`) then has nothing to leak.
export interface EnvSettings {
  /** Name patterns (`*` wildcards) removed from commands' environment. */
  hideEnv: readonly string[];
  /** Names kept even when a hide pattern matches (never toolbelt's own secrets). */
  passEnv: readonly string[];
}

export const HIDE_ENV_DEFAULT = [
  '*_TOKEN',
  '*_KEY',
  '*_SECRET',
  '*_SECRET_KEY',
  '*_PASSWORD',
  '*_PASSWD',
  '*_CREDENTIALS',
  '*_API_KEY',
];

const OWN_SECRET = /^TOOLBELT_.*(TOKEN|SECRET|KEY|PASSWORD)/i;

function matcher(patterns: readonly string[]): (name: string) => boolean {
  if (!patterns.length) return () => false;
  const re = new RegExp(
    `^(?:${patterns.map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')).join('|')})$`,
    'i',
  );
  return (name) => re.test(name);
}

/** Per settings, whether each variable name is kept: built once, since every command asks again. */
const keepers = new WeakMap<EnvSettings, Map<string, boolean>>();

function keeper(s: EnvSettings): (name: string) => boolean {
  let known = keepers.get(s);
  if (!known) keepers.set(s, (known = new Map()));
  const cache = known;
  let hidden: ((name: string) => boolean) | undefined;
  const pass = new Set(s.passEnv);
  return (name) => {
    let keep = cache.get(name);
    if (keep === undefined) {
      hidden ??= matcher(s.hideEnv);
      keep = !OWN_SECRET.test(name) && (!hidden(name) || pass.has(name));
      cache.set(name, keep);
    }
    return keep;
  };
}

export function scrubbedEnv(base: NodeJS.ProcessEnv, s: EnvSettings): NodeJS.ProcessEnv {
  const keep = keeper(s);
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(base)) if (keep(k)) env[k] = v;
  return env;
}

/** No prompts, no pagers: a command that would wait for a person fails or prints instead. */
export function commandEnv(s: EnvSettings, base: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  return {
    ...scrubbedEnv(base, s),
    GIT_TERMINAL_PROMPT: '0',
    GIT_PAGER: 'cat',
    PAGER: 'cat',
    DEBIAN_FRONTEND: 'noninteractive',
  };
}

/**
 * For a command that runs without asking because it was judged a read: git configuration that
 * the command line outranks, so a repository's own config cannot make a "read" run a program.
 * (The classifier already asks when the repository's config names programs; this holds when it
 * missed one.)
 */
const GIT_READ_OVERRIDES: readonly (readonly [string, string])[] = [
  ['core.fsmonitor', 'false'],
  ['core.hooksPath', '/dev/null'],
  ['core.pager', 'cat'],
  ['core.sshCommand', 'false'],
  ['core.gitProxy', ''],
  ['core.alternateRefsCommand', ''],
  ['diff.external', ''],
  ['gpg.program', 'false'],
  ['credential.helper', ''],
  ['protocol.allow', 'never'],
  ['protocol.file.allow', 'always'],
  ['safe.bareRepository', 'explicit'],
  ['uploadpack.packObjectsHook', ''],
];

export function gitReadEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = { ...env };
  let n = Number(env.GIT_CONFIG_COUNT ?? 0) || 0;
  for (const [k, v] of GIT_READ_OVERRIDES) {
    out[`GIT_CONFIG_KEY_${n}`] = k;
    out[`GIT_CONFIG_VALUE_${n}`] = v;
    n++;
  }
  out.GIT_CONFIG_COUNT = String(n);
  out.GIT_NO_REPLACE_OBJECTS = '1';
  // `git status` refreshes the index (a write, and a lock file) unless told not to.
  out.GIT_OPTIONAL_LOCKS = '0';
  // npm and pip queries (`npm ls`, `pip show`) otherwise look for their own updates over the network.
  out.npm_config_update_notifier = 'false';
  out.PIP_DISABLE_PIP_VERSION_CHECK = '1';
  return out;
}
