// Finds doc comments (/** ... */) that document nothing: followed by a blank line, by another
// comment, or by the end of a block. Such a comment was left behind when the code under it moved.
// `node scripts/orphan-doc-comments.mjs [dir...]` (default: packages, scripts, bench); exits 1 on a find.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';

const root = new URL('..', import.meta.url).pathname;
const SKIP = new Set(['node_modules', 'dist', '__fixtures__']);

function* sources(dir) {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (SKIP.has(e.name)) continue;
    const path = join(dir, e.name);
    if (e.isDirectory()) yield* sources(path);
    else if (/\.(ts|tsx|mts|mjs)$/.test(e.name) && !e.name.endsWith('.d.ts')) yield path;
  }
}

/** The doc comments of `text` that no code follows directly: [line, why]. */
export function orphans(text, tsx) {
  const kind = tsx ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const file = ts.createSourceFile('x', text, ts.ScriptTarget.Latest, false, kind);
  const found = new Map();
  const lineOf = (pos) => text.slice(0, pos).split('\n').length;
  const visit = (node) => {
    // The parser hangs doc comments on the node they document as JSDoc children: not tokens.
    const children = node.getChildren(file).filter((c) => !ts.isJSDoc(c));
    if (children.length) return children.forEach(visit);
    // A token: the comments before it, and which doc comments among them document nothing.
    const ranges = ts.getLeadingCommentRanges(text, node.getFullStart()) ?? [];
    ranges.forEach((r, i) => {
      if (text.slice(r.pos, r.pos + 3) !== '/**' || text.slice(r.pos, r.pos + 4) === '/**/') return;
      const why =
        i < ranges.length - 1
          ? 'another comment follows it'
          : /\n[ \t]*\n/.test(text.slice(r.end, node.getStart(file)))
            ? 'a blank line follows it'
            : node.kind === ts.SyntaxKind.CloseBraceToken
              ? 'it ends a block'
              : node.kind === ts.SyntaxKind.EndOfFileToken
                ? 'it ends the file'
                : undefined;
      if (why) found.set(r.pos, [lineOf(r.pos), why]);
    });
  };
  visit(file);
  return [...found.values()];
}

function main(dirs) {
  let count = 0;
  for (const dir of dirs.length ? dirs : ['packages', 'scripts', 'bench']) {
    for (const file of sources(join(root, dir))) {
      for (const [line, why] of orphans(readFileSync(file, 'utf8'), file.endsWith('x'))) {
        console.log(`${relative(root, file)}:${line}: a doc comment that documents nothing (${why})`);
        count++;
      }
    }
  }
  return count ? 1 : 0;
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) process.exit(main(process.argv.slice(2)));
