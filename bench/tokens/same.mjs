// The agreement check of bench/tokens: a token ratio means something only when both answers carry
// the same information. Each extractor turns one server's answer into what it says (the file's
// text, the set of names, paths or matching lines), whatever the framing; run.mjs compares them.
import { relative } from 'node:path';

/** The text blocks of server-filesystem's answer, without the structuredContent that repeats them. */
const textPart = (text) => text.split(/\n\{"content":/)[0];

/** Lines other than the footer toolbelt puts after a blank line ("20 matching lines in 6 files."). */
const body = (text) => text.split('\n\n').filter((b) => !/^\d+ (matching lines?|files?)\b/.test(b));

/** read_file's numbered lines back to the file's text. */
export const numbered = (text) => text.replace(/^\d+\t/gm, '').trimEnd();
export const raw = (text) => textPart(text).trimEnd();

/** list_directory: names, directories with a trailing slash. */
export function ourNames(text) {
  return new Set(
    text
      .split('\n')
      .slice(1)
      .filter((l) => l.trim())
      .map((l) => l.trim().replace(/ {2}\S+ [KMG]?B$/, '')),
  );
}
export function theirNames(text) {
  return new Set(
    textPart(text)
      .split('\n')
      .filter(Boolean)
      .map((l) => l.replace(/^\[FILE\] /, '').replace(/^\[DIR\] (.*)$/, '$1/')),
  );
}

/** list_directory with depth: the paths of the files, from the indentation. */
export function ourTree(text) {
  const files = new Set();
  const stack = [];
  for (const line of text.split('\n').slice(1)) {
    if (!line.trim()) continue;
    const depth = (line.length - line.trimStart().length) / 2 - 1;
    const name = line.trim().replace(/ {2}\S+ [KMG]?B$/, '');
    stack.length = depth;
    if (name.endsWith('/')) stack.push(name);
    else files.add(stack.join('') + name);
  }
  return files;
}

/** glob: `dir/` then its files indented. */
export function ourGlob(text) {
  const files = new Set();
  let dir = '';
  for (const line of text.split('\n')) {
    if (line.startsWith('  ')) files.add(dir + line.trim());
    else if (line.endsWith('/')) dir = line === './' ? '' : line;
  }
  return files;
}

/**
 * directory_tree: the paths of the files, without the .toolbelt folder that toolbelt's own
 * execution log creates in the corpus (toolbelt never lists it).
 */
export function theirTree(text) {
  const files = new Set();
  const visit = (nodes, prefix) => {
    for (const n of nodes) {
      if (n.type === 'directory') {
        if (!(prefix === '' && n.name === '.toolbelt')) visit(n.children ?? [], `${prefix}${n.name}/`);
      } else files.add(prefix + n.name);
    }
  };
  visit(JSON.parse(textPart(text)), '');
  return files;
}

export const ourPaths = (text) => new Set(body(text).join('\n').split('\n').filter(Boolean));
export const theirPaths = (root) => (text) =>
  new Set(
    textPart(text)
      .split('\n')
      .filter(Boolean)
      .map((p) => relative(root, p)),
  );

/** `path:N` (and its kind, `:` match or `-` context) of every line a grep answer shows, in either layout. */
export function grepLines(text) {
  const found = new Set();
  for (const block of body(text)) {
    let path = '';
    for (const line of block.split('\n')) {
      const flat = /^(.+?):(\d+)([:-])/.exec(line);
      const numbered = /^(\d+)([:-])/.exec(line);
      if (numbered && path) found.add(`${path}:${numbered[1]}${numbered[2]}`);
      else if (flat) found.add(`${flat[1]}:${flat[2]}${flat[3]}`);
      else if (line !== '--') path = line;
    }
  }
  return found;
}
