// node:fs with the globSync of Node 22, for the conformance suite on Node 20 (see preload.mjs).
import fs from 'node:fs';
import fg from 'fast-glob';

export * from 'node:fs';
export default fs;

/** fs.globSync(pattern, { cwd }): relative paths of the matching files. */
export function globSync(pattern, options = {}) {
  return fg.sync(pattern, { cwd: options.cwd ?? process.cwd(), dot: true, onlyFiles: false });
}
