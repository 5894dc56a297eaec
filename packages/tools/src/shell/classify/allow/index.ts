// Command name -> what makes it a read. A command not here is never a read.
import { ARCHIVES } from './archives.js';
import { BUILTINS } from './builtins.js';
import { COREUTILS } from './coreutils.js';
import { find } from './find.js';
import { gitSpec } from './git.js';
import { PACKAGES } from './packages.js';
import type { ReadSpec } from './spec.js';
import { TEXT } from './text.js';
import { WRAPPERS } from './wrappers.js';

const ALLOW: Record<string, ReadSpec> = { ...COREUTILS, ...TEXT, ...BUILTINS, ...WRAPPERS, ...ARCHIVES, ...PACKAGES, find, git: gitSpec };

export function readSpecFor(name: string): ReadSpec | undefined {
  return Object.hasOwn(ALLOW, name) ? ALLOW[name] : undefined;
}

export { judge, readFindings } from './spec.js';
