// What a repository's own configuration may not do through the git tools: name a program for git
// to run. Whoever wrote the tree (the agent, a cloned project) wrote .git/config too.
//
// Why git is asked, not the file read: git's config syntax has many spellings of one key
// (`[filter "x"]`, `[filter.x]`, `[FILTER "x"]`, continuation lines, `[include]` and `[includeIf]`
// of other files, config.worktree), and any parser but git's own misses some. So before each run,
// `git config --list --show-scope -z` (in the same sandbox, cwd and environment as the run) says
// which keys the repository's scopes (local, worktree, and the files they include, which inherit
// their scope) set, and every program-naming one among them is overridden on the run's command
// scope, which outranks them. A key set only by the user's own (system or global) config is
// theirs and left alone; where the repository overrides one of theirs, their value is put back.
//
// Why not drop the repository's config altogether: git has no switch that skips it (only
// GIT_CONFIG_GLOBAL/GIT_CONFIG_SYSTEM/GIT_CONFIG_NOSYSTEM for the others), and the tools need what
// is in it (remotes, upstreams, identity). A shadow git directory with a filtered config breaks
// on the first ref or config write. This remains defence in depth: git runs inside the sandbox
// (read-only for reads, no network but for git_push), which holds whatever slips through (a
// submodule's own config, which this listing does not see, or a config changed between the
// listing and the run).

export interface ConfigEntry {
  scope: string;
  /** As git prints it: section and name lower-case, a subsection as written. */
  key: string;
  value: string | undefined;
}

/** The scopes a repository's tree controls. */
const REPO_SCOPES = new Set(['local', 'worktree']);

/** Keys whose value git runs (or that make it run one), with the value that runs nothing. */
const RULES: readonly { match: RegExp; neutral: string | ((key: string) => string); list?: boolean }[] = [
  { match: /^filter\..+\.(clean|smudge|process)$/i, neutral: '' },
  // A required filter without a command stops git; its command is gone, so it is not required.
  { match: /^filter\..+\.required$/i, neutral: 'false' },
  { match: /^diff\..+\.(textconv|command)$/i, neutral: '' },
  { match: /^diff\.external$/i, neutral: '' },
  { match: /^merge\..+\.driver$/i, neutral: '' },
  { match: /^core\.fsmonitor$/i, neutral: 'false' },
  { match: /^core\.hookspath$/i, neutral: '/dev/null' },
  { match: /^core\.sshcommand$/i, neutral: 'ssh' },
  { match: /^(core|sequence)\.editor$/i, neutral: 'true' },
  { match: /^core\.pager$/i, neutral: 'cat' },
  { match: /^pager\./i, neutral: 'false' },
  { match: /^core\.askpass$/i, neutral: '' },
  { match: /^core\.alternaterefscommand$/i, neutral: '' },
  { match: /^credential\.(.+\.)?helper$/i, neutral: '', list: true },
  {
    match: /^gpg\.(.+\.)?program$/i,
    neutral: (k) => (/^gpg\.x509\./i.test(k) ? 'gpgsm' : /^gpg\.ssh\./i.test(k) ? 'ssh-keygen' : 'gpg'),
  },
  { match: /^gpg\.ssh\.defaultkeycommand$/i, neutral: '' },
  { match: /^remote\..+\.receivepack$/i, neutral: 'git-receive-pack' },
  { match: /^remote\..+\.uploadpack$/i, neutral: 'git-upload-pack' },
  // A remote helper by name; empty names none, so the push fails instead.
  { match: /^remote\..+\.vcs$/i, neutral: '' },
];

/** Set on every run whatever the listing says: the keys a repository could use to run something. */
export const STATIC_OVERRIDES: readonly string[] = [
  ['core.fsmonitor', 'false'],
  ['core.hooksPath', '/dev/null'],
  ['diff.external', ''],
  ['core.pager', 'cat'],
  ['core.alternateRefsCommand', ''],
  ['uploadpack.packObjectsHook', ''],
  // The one transport that runs a command line from the URL.
  ['protocol.ext.allow', 'never'],
  // A bare repository planted in the tree is never found by walking up from a directory in it.
  ['safe.bareRepository', 'explicit'],
].flatMap(([k, v]) => ['-c', `${k}=${v}`]);

/** `git config --list --show-scope -z`: `scope NUL key LF value NUL`, or `scope NUL key NUL` for a key without a value. */
export function parseListing(out: string): ConfigEntry[] {
  const parts = out.split('\0');
  const entries: ConfigEntry[] = [];
  for (let i = 0; i + 1 < parts.length; i += 2) {
    const item = parts[i + 1];
    const nl = item.indexOf('\n');
    entries.push({
      scope: parts[i],
      key: nl < 0 ? item : item.slice(0, nl),
      value: nl < 0 ? undefined : item.slice(nl + 1),
    });
  }
  return entries;
}

export interface ConfigGuard {
  /** Key and value pairs for the run's command scope, in order. */
  overrides: [string, string][];
  /** Variables for the run unless it has them already (a key the command scope cannot outrank). */
  env: Record<string, string>;
}

/** The overrides for every program-naming key the repository's scopes set. */
export function guardConfig(entries: readonly ConfigEntry[]): ConfigGuard {
  const guard: ConfigGuard = { overrides: [], env: {} };
  const done = new Set<string>();
  for (const e of entries) {
    if (!REPO_SCOPES.has(e.scope) || done.has(e.key)) continue;
    done.add(e.key);
    // The first core.gitProxy read wins, so the command scope comes too late: the variable,
    // read before any config, wins (empty: no proxy command; one the user set is kept).
    if (/^core\.gitproxy$/i.test(e.key)) guard.env.GIT_PROXY_COMMAND = '';
    const rule = RULES.find((r) => r.match.test(e.key));
    if (!rule) continue;
    const theirs = entries
      .filter((o) => o.key === e.key && !REPO_SCOPES.has(o.scope) && o.value !== undefined)
      .map((o) => o.value!);
    const neutral = typeof rule.neutral === 'string' ? rule.neutral : rule.neutral(e.key);
    if (rule.list) {
      // An empty value empties the list (credential helpers); then the user's own again.
      guard.overrides.push([e.key, neutral], ...theirs.map((v): [string, string] => [e.key, v]));
    } else {
      guard.overrides.push([e.key, theirs.length ? theirs[theirs.length - 1] : neutral]);
    }
  }
  return guard;
}

/**
 * The pairs as GIT_CONFIG_COUNT/KEY_n/VALUE_n (command scope, like -c): key and value stay apart,
 * so a subsection with `=` or spaces in it cannot be misread, as it could in `-c key=value`.
 */
export function configEnv(pairs: readonly [string, string][]): Record<string, string> {
  const env: Record<string, string> = { GIT_CONFIG_COUNT: String(pairs.length) };
  pairs.forEach(([k, v], i) => {
    env[`GIT_CONFIG_KEY_${i}`] = k;
    env[`GIT_CONFIG_VALUE_${i}`] = v;
  });
  return env;
}
