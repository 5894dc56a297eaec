// Small input rewrites for other tool sets' shapes: dropping parameters that mean nothing here,
// a command given as an argv array, a line range, a URL inside a prompt.
type Input = Record<string, unknown>;

/** Without these keys (parameters another tool set needs and ours do without, like a `description` of a command). */
export const drop =
  (...keys: string[]) =>
  (input: Input): Input => {
    if (!keys.some((k) => Object.hasOwn(input, k))) return input;
    const out = { ...input };
    for (const k of keys) delete out[k];
    return out;
  };

/** Applies each rewrite in turn. */
export const pipe =
  (...steps: ((input: Input) => Input)[]) =>
  (input: Input): Input =>
    steps.reduce((acc, step) => step(acc), input);

/** Sets fixed values (`{ what: 'hover' }`), never over one the call gave. */
export const fixed =
  (values: Input) =>
  (input: Input): Input => ({ ...values, ...input });

/** Renames keys (those that also need a value change are done by their own step). */
const rename =
  (names: Record<string, string>) =>
  (input: Input): Input => {
    const out: Input = {};
    for (const [k, v] of Object.entries(input))
      out[Object.hasOwn(names, k) && !Object.hasOwn(input, names[k]) ? names[k] : k] = v;
    return out;
  };

/** Codex passes `["bash", "-lc", "npm test"]`; anything else is quoted word by word. */
export function argvToCommand(input: Input): Input {
  const argv = input.command;
  if (!Array.isArray(argv) || !argv.every((a) => typeof a === 'string')) return input;
  const [shell, flag, script] = argv as string[];
  const wrapped = argv.length === 3 && /^(ba|z)?sh$/.test(shell.replace(/^.*\//, '')) && /^-l?c$/.test(flag);
  const command = wrapped
    ? script
    : (argv as string[]).map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`)).join(' ');
  return { ...input, command };
}

/** `view_range: [from, to]` (to -1 for the end) as offset and limit. */
export function viewRange(input: Input): Input {
  const range = input.view_range;
  if (!Array.isArray(range) || range.length !== 2 || !range.every((n) => Number.isInteger(n))) return input;
  const [from, to] = range as number[];
  const { view_range: _, ...rest } = input;
  return { ...rest, offset: from, ...(to >= from ? { limit: to - from + 1 } : {}) };
}

/** Seconds (OpenHands' timeout) as the milliseconds shell_exec takes. */
export function secondsToMs(input: Input): Input {
  if (typeof input.timeout !== 'number') return input;
  const { timeout, ...rest } = input;
  return { ...rest, timeout_ms: Math.round(timeout * 1000) };
}

/** gemini-cli's web_fetch takes a prompt with the URL in it. */
export function urlFromPrompt(input: Input): Input {
  if (input.url !== undefined || typeof input.prompt !== 'string') return input;
  const url = /https?:\/\/[^\s"'<>)\]]+/.exec(input.prompt)?.[0];
  if (!url) return input;
  const { prompt: _, ...rest } = input;
  return { ...rest, url };
}

/** A flag that means the opposite of ours (`respect_git_ignore` against `include_ignored`). */
export const negate =
  (from: string, to: string) =>
  (input: Input): Input => {
    if (typeof input[from] !== 'boolean' || Object.hasOwn(input, to)) return input;
    const { [from]: value, ...rest } = input;
    return { ...rest, [to]: !value };
  };

/** Each edit of an `edits` list in our words (opencode's multiedit spells them oldString/newString). */
export function editsInOwnWords(input: Input): Input {
  if (!Array.isArray(input.edits)) return input;
  const names = {
    old: 'old_string',
    old_str: 'old_string',
    oldString: 'old_string',
    new: 'new_string',
    new_str: 'new_string',
    newString: 'new_string',
    replaceAll: 'replace_all',
  };
  return {
    ...input,
    edits: input.edits.map((e) =>
      e && typeof e === 'object' && !Array.isArray(e) ? drop('filePath', 'file_path')(rename(names)(e as Input)) : e,
    ),
  };
}

/** gemini-cli's replace: expected_replacements above 1 means every occurrence. */
export function expectedReplacements(input: Input): Input {
  if (typeof input.expected_replacements !== 'number') return input;
  const { expected_replacements: n, ...rest } = input;
  return n > 1 && rest.replace_all === undefined ? { ...rest, replace_all: true } : rest;
}

/** git_branch as list-or-create: `{ name, create: true }` is action create. */
export function createFlag(input: Input): Input {
  if (typeof input.create !== 'boolean' || input.action !== undefined) return input;
  const { create, ...rest } = input;
  return create ? { ...rest, action: 'create' } : rest;
}
