// Which shell variables a script may set and still be a read. Exported ones reach every command
// it runs (`HOME=. git status` reads a planted config, `TAR_OPTIONS` adds options), so only a short
// list of display settings is harmless; a shell-only variable is harmless unless bash or the
// environment already gives it a meaning.
const SAFE_ENV = /^(LC_[A-Z]+|LANG|LANGUAGE|TZ|NO_COLOR|FORCE_COLOR|CLICOLOR|CLICOLOR_FORCE|COLUMNS|LINES|TERM|CI)$/;
const SHELL_SPECIAL =
  /^(BASH.*|IFS|PATH|HOME|ENV|PS[0-4]|PROMPT_COMMAND|SHELLOPTS|BASHOPTS|CDPATH|GLOBIGNORE|HIST.*|FUNCNEST|TMOUT|POSIXLY_CORRECT|EXECIGNORE|MAIL.*|INPUTRC|TMPDIR|OPTERR|COMP_.*|READLINE_.*|PWD|OLDPWD|SHELL|[a-z_]*proxy)$/i;

export function assignProblem(
  name: string,
  exported: boolean,
  env: Readonly<Record<string, string | undefined>>,
): string | undefined {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) return `${name} is not a plain variable name`;
  if (SAFE_ENV.test(name)) return undefined;
  if (exported) return `passes ${name} to the commands it runs, which can change what they read or run`;
  if (SHELL_SPECIAL.test(name) || Object.hasOwn(env, name))
    return `sets ${name}, which changes what later commands read or run`;
  return undefined;
}
