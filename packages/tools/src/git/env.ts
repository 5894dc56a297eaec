// The environment every git run gets: scrubbed like a shell command's (no toolbelt tokens, no
// key-like variables, no PATH entry the workspace could fill), without the variables that would
// point git at another repository or config, and never waiting for a person.
import type { EnvSettings } from '../shell/env.js';
import { TOOL_ENV_DEFAULT, toolEnv } from '../shell/child-env.js';

// Variables that would point git at another repository or index than the one we chose.
const LOCATION_VARS = [
  'GIT_DIR',
  'GIT_WORK_TREE',
  'GIT_INDEX_FILE',
  'GIT_OBJECT_DIRECTORY',
  'GIT_ALTERNATE_OBJECT_DIRECTORIES',
  'GIT_COMMON_DIR',
  'GIT_NAMESPACE',
  'GIT_PREFIX',
  'GIT_CEILING_DIRECTORIES',
  'GIT_DISCOVERY_ACROSS_FILESYSTEM',
  'GIT_CONFIG',
  'GIT_CONFIG_PARAMETERS',
  'GIT_CONFIG_COUNT',
  'GIT_EXTERNAL_DIFF',
  'GIT_DIFF_OPTS',
];

export function gitEnv(
  base: NodeJS.ProcessEnv = process.env,
  settings: EnvSettings = TOOL_ENV_DEFAULT,
): NodeJS.ProcessEnv {
  const env = toolEnv(settings, base);
  for (const k of LOCATION_VARS) delete env[k];
  for (const k of Object.keys(env))
    if (k.startsWith('GIT_CONFIG_KEY_') || k.startsWith('GIT_CONFIG_VALUE_')) delete env[k];
  return {
    ...env,
    GIT_TERMINAL_PROMPT: '0',
    GIT_PAGER: 'cat',
    PAGER: 'cat',
    GIT_EDITOR: 'true',
    GIT_SEQUENCE_EDITOR: 'true',
    GIT_ASKPASS: '',
    SSH_ASKPASS: '',
    // Paths given to git are paths, never globs or pathspec magic.
    GIT_LITERAL_PATHSPECS: '1',
    LC_ALL: 'C',
    LANG: 'C',
  };
}
