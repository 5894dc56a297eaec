// A tree that exercises everything the two grep engines must agree on: nested and negated ignore
// files of all three kinds, a nested repository, hidden and VCS directories, symlinks, binary,
// UTF-16, BOM, CRLF, no final newline, overlong lines, odd file names.
import { mkdirSync, mkdtempSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

export function makeSearchTree(): string {
  const root = join(realpathSync(mkdtempSync(join(tmpdir(), 'tb-grep-'))), 'root');
  const files: Record<string, string | Buffer> = {
    '.gitignore': 'build/\n*.log\n/top-only.txt\n!keep.log\nnode_modules/\n',
    '.ignore': 'secret-notes/\n',
    '.rgignore': '!important.log\n',
    'a.ts':
      'import { foo } from "./b";\nconst x = foo();\n// nothing here\nexport function fooBar() {\n  return Foo;\n}\n',
    'b.js': 'export const foo = () => 1;\nmodule.exports = { foo };\n',
    'keep.log': 'foo in keep.log\n',
    'debug.log': 'foo in debug.log\n',
    'important.log': 'foo important\n',
    'top-only.txt': 'foo at top\n',
    'sub/top-only.txt': 'foo in sub\n',
    'build/out.js': 'foo built\n',
    'node_modules/pkg/index.js': 'module.exports.foo = 1;\n',
    'secret-notes/n.txt': 'foo secret\n',
    '.hidden/h.ts': 'export const hidden = "foo";\n',
    '.git/config': '[foo]\n',
    '.toolbelt/executions.jsonl': '{"foo":"logged"}\n',
    'sub/.gitignore': '!debug.log\n*.tmp\n',
    'sub/debug.log': 'foo re-included\n',
    'sub/x.tmp': 'foo tmp\n',
    'sub/c.ts': 'line one\nfoo two\nline three\n',
    'sub/deep/.ignore': '*.md\n',
    'sub/deep/readme.md': 'foo readme\n',
    'sub/deep/d.py': 'def foo():\n    return "foo"\n',
    'sub/deep/notes.md.txt': 'foo notes\n',
    'nested-repo/.git/HEAD': 'ref: refs/heads/main\n',
    'nested-repo/.gitignore': '*.txt\n',
    'nested-repo/n.txt': 'foo nested txt\n',
    'nested-repo/n.ts': 'foo nested ts\n',
    'nested-repo/z.log': 'foo nested log\n',
    'crlf.txt': 'foo\r\nbar foo\r\nbaz\r\n',
    'bom.txt': Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('foo first\nsecond\n')]),
    'utf16.txt': Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('foo utf16\nbar\n', 'utf16le')]),
    'binary.dat': Buffer.from('foo\0bar\n'),
    'bigbin.txt': Buffer.concat([
      Buffer.from('foo early\n'),
      Buffer.from('x'.repeat(70_000) + '\n'),
      Buffer.from([0]),
      Buffer.from('\nfoo late\n'),
    ]),
    'noeol.txt': 'first\nfoo no newline',
    'long.txt': `${'y'.repeat(3000)} foo ${'z'.repeat(3000)}\n`,
    'many.txt': Array.from({ length: 30 }, (_, i) => (i % 4 === 0 ? `foo ${i + 1}` : `ctx ${i + 1}`)).join('\n') + '\n',
    'empty.txt': '',
    'unicode.txt': 'café foo\nnaïve FOO\nΣίσυφος\n',
    'space name.ts': 'foo with space\n',
    '-dash.ts': 'foo dash\n',
    'Straße.md': 'Foo bar\nfoo\nbar\n',
    'multi.txt': 'foo\nbar\nfoo\nbaz\nfoo\nbar\n',
  };
  for (const [rel, content] of Object.entries(files)) {
    const p = join(root, rel);
    mkdirSync(dirname(p), { recursive: true });
    writeFileSync(p, content);
  }
  symlinkSync('a.ts', join(root, 'link.ts'));
  symlinkSync('sub', join(root, 'linkdir'));
  return root;
}
