// Command name -> what makes it a read. A command not here is never a read.
import { ARCHIVE_CARDS } from './archives.js';
import { specsOf, type Card } from './card.js';
import { CHECKSUM_CARDS } from './checksums.js';
import { BUILTINS } from './builtins.js';
import { COREUTILS } from './coreutils.js';
import { find } from './find.js';
import { GIT_CARD } from './git-card.js';
import { PACKAGE_CARDS } from './packages.js';
import { PROCESS_CARDS } from './processes.js';
import { SYSTEM_INFO_CARDS } from './system-info.js';
import type { ReadSpec } from './spec.js';
import { TEXT } from './text.js';
import { WRAPPERS } from './wrappers.js';

/** The command families kept as cards (card.ts): rule, severity and examples together. */
export const CARDS: readonly Card[] = [
  GIT_CARD,
  ...CHECKSUM_CARDS,
  ...ARCHIVE_CARDS,
  ...PACKAGE_CARDS,
  ...PROCESS_CARDS,
  ...SYSTEM_INFO_CARDS,
];

const ALLOW: Record<string, ReadSpec> = {
  ...COREUTILS,
  ...TEXT,
  ...BUILTINS,
  ...WRAPPERS,
  ...specsOf(CARDS),
  find,
};

const BY_NAME = new Map(CARDS.flatMap((card) => card.names.map((name) => [name, card] as const)));

/** The card of a command name, if its family has one. */
export function cardFor(name: string): Card | undefined {
  return BY_NAME.get(name);
}

export function readSpecFor(name: string): ReadSpec | undefined {
  return Object.hasOwn(ALLOW, name) ? ALLOW[name] : undefined;
}

export { judge, readFindings } from './spec.js';
