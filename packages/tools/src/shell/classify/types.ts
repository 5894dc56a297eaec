// What the classifier says about one piece of a script, and what a command handler may ask of it.
import type { Effect } from '@toolbelt/core';
import type { WalkMode } from './allow/tree.js';
import type { Names } from './producers.js';
import type { Word } from './words.js';

export type { Effect };

const ORDER: Record<Effect, number> = { read: 0, write: 1, execute: 2, destructive: 3 };

export function severity(e: Effect): number {
  return ORDER[e];
}

/** The findings of the worst effect among them. */
export function mostSevere(findings: Finding[]): Finding[] {
  const top = Math.max(...findings.map((f) => severity(f.effect)));
  return findings.filter((f) => severity(f.effect) === top);
}

/** One verdict on one part of a script: a simple command, a redirection, a definition. */
export interface Finding {
  effect: Effect;
  /** For a person: the command and why, e.g. `rm -r build/` or `git push --force (rewrites remote history)`. */
  detail: string;
  /** Set for a hard deny: what makes it catastrophic. */
  blocked?: string;
  warning?: string;
  /** Absolute paths this part writes or deletes. */
  paths?: string[];
}

/** A simple command after word resolution: `name args...`, with prefix assignments apart. */
export interface SimpleCommand {
  name: string;
  args: Word[];
  /** Normalized text (`git push origin main`), used in reasons and policy prefixes. */
  text: string;
  /** The rendered words of `text`: prefix assignments first, then the name and arguments. */
  tokens: string[];
  /** How many of `tokens` are prefix assignments (`CI=1`). */
  lead: number;
}

/** What a command handler may use: path facts and recursion into inner commands. */
export interface Scope {
  /** Absolute path for a word, or undefined when it is computed or the cwd is not known. */
  resolve(word: Word): string | undefined;
  exists(absPath: string): boolean;
  isDirectory(absPath: string): boolean;
  readonly home: string;
  /** Classifies an argv run by a wrapper (`sudo`, `xargs`, `find -exec`). */
  argv(words: Word[]): Finding[];
  /** Classifies a script given as a string (`bash -c`, `eval`, `trap`, `watch`). */
  script(text: string): Finding[];
  /** Marks the tracked cwd (for relative paths) as changed. */
  chdir(target: Word | undefined): void;
  /** The tracked cwd, undefined once a `cd` could not be followed. */
  readonly cwd: string | undefined;
  /** The workspace roots (real paths). */
  readonly roots: readonly string[];
  /** Reads run read-only in the sandbox with the roots' secrets hidden. */
  readonly confined: boolean;
  /** What the command reads on stdin, when the command before it in a pipeline prints only names. */
  readonly stdinNames: Names | undefined;
  /**
   * Why reading this word as a file is not a plain read (computed, outside the roots, a secret,
   * a directory with secrets when `walk` is given); undefined when it is. Globs are expanded first.
   */
  readProblem(word: Word, walk?: WalkMode): string | undefined;
  /** Why setting this shell variable is not harmless (`exported`: children see it). */
  assignProblem(name: string, exported: boolean): string | undefined;
}

export type Handler = (cmd: SimpleCommand, scope: Scope) => Finding[];

export function read(cmd: SimpleCommand, why?: string): Finding[] {
  return [{ effect: 'read', detail: describe(cmd, why) }];
}
export function write(cmd: SimpleCommand, why?: string, paths?: string[]): Finding[] {
  return [{ effect: 'write', detail: describe(cmd, why), ...(paths?.length ? { paths } : {}) }];
}
export function execute(cmd: SimpleCommand, why?: string): Finding[] {
  return [{ effect: 'execute', detail: describe(cmd, why) }];
}
export function destroy(cmd: SimpleCommand, why?: string, paths?: string[]): Finding[] {
  return [{ effect: 'destructive', detail: describe(cmd, why), ...(paths?.length ? { paths } : {}) }];
}
export function block(cmd: SimpleCommand, why: string): Finding[] {
  return [{ effect: 'destructive', detail: describe(cmd, why), blocked: `${shorten(cmd.text)} ${why}` }];
}

const MAX_DETAIL = 120;

export function shorten(text: string): string {
  const one = text.replace(/\s+/g, ' ');
  return one.length > MAX_DETAIL ? `${one.slice(0, MAX_DETAIL - 1)}…` : one;
}

export function describe(cmd: SimpleCommand, why?: string): string {
  return why ? `${shorten(cmd.text)} (${why})` : shorten(cmd.text);
}
