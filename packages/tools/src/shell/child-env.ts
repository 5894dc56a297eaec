// The environment of a program toolbelt itself starts for a tool (git, a language server): the
// same scrub as shell commands (toolbelt's own tokens and key-like variables removed, see
// shell/env.ts), and a PATH without the entries the workspace could have filled (relative ones,
// node_modules/.bin, directories inside a root), so nothing that program starts by name (a git
// helper, npm for typings) comes from the workspace either.
import { delimiter } from 'node:path';
import { HIDE_ENV_DEFAULT, scrubbedEnv, type EnvSettings } from './env.js';
import { untrustedDirReason } from '../process/programs.js';

export const TOOL_ENV_DEFAULT: EnvSettings = { hideEnv: HIDE_ENV_DEFAULT, passEnv: [] };

/** PATH less the entries programs.ts would never take a program from. */
function trustedPathVar(pathVar: string | undefined): string {
  return (pathVar ?? '')
    .split(delimiter)
    .filter((dir) => dir && !untrustedDirReason(dir))
    .join(delimiter);
}

export function toolEnv(
  settings: EnvSettings = TOOL_ENV_DEFAULT,
  base: NodeJS.ProcessEnv = process.env,
): NodeJS.ProcessEnv {
  const env = scrubbedEnv(base, settings);
  env.PATH = trustedPathVar(env.PATH);
  return env;
}
