// Where a stdio server starts. A server started in toolbelt's own working directory would serve
// whatever directory toolbelt happened to be started from (a filesystem server given "." from `/`
// serves the whole disk), so it starts in the first workspace root, or in its configured `cwd`,
// which must lie inside the roots.
import { realpathSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathUnder } from '@toolbelt/core';

function real(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

/** The real directory to start the server in, or what is wrong with its `cwd`. */
export function serverCwd(configured: string | undefined, roots: readonly string[]): string | { problem: string } {
  const first = roots[0];
  const wanted = resolve(first, configured ?? '.');
  const shown = configured === undefined ? wanted : `"cwd" ${configured}${configured === wanted ? '' : ` (${wanted})`}`;
  let dir: string;
  try {
    dir = realpathSync(wanted);
  } catch {
    return { problem: `${shown} does not exist; create it or fix "cwd" for this server in mcpServers` };
  }
  if (!statSync(dir).isDirectory())
    return { problem: `${shown} is not a directory; fix "cwd" for this server in mcpServers` };
  // Compared after symlinks on both sides, so a link inside a root cannot lead a server out of it.
  if (!roots.some((root) => pathUnder(dir, real(root)))) {
    return {
      problem: `${shown} is outside the workspace roots (${roots.join(', ')}); a server starts inside them. Use a directory under ${first}, or drop "cwd" to start it in ${first}`,
    };
  }
  return dir;
}
