// The same information asked of both servers on the same corpus: one row per case. `ours` and
// `theirs` return the text each server answers; where server-filesystem has no such tool, `theirs` is
// the row's named anchor (content search: `rg -n --heading` for the same matches, as the issue names;
// a structured result: the same data as pretty JSON). `same` turns each answer into what it says,
// for the agreement check (run.mjs): the rows that answer the same question must say the same.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { structuredText } from '@toolbelt/core';
import { join } from 'node:path';
import * as same from './same.mjs';
import { callText } from './servers.mjs';

export const READ_FILE = 'v4/core/visit.ts';
export const LIST_DIR = 'v4/core';
export const NAME_GLOB = '**/*schema*.ts';
export const GREP_PATTERN = '\\bcoercion\\b';
// Two adjacent lines of READ_FILE, replaced by two others.
const EDIT_OLD = (text) => text.split('\n').slice(1, 3).join('\n');

/** The cases, bound to a corpus at `root` and the two clients. */
export function cases(root, tb, fs) {
  const abs = (p) => join(root, p);
  const original = readFileSync(abs(READ_FILE), 'utf8');
  const oldText = EDIT_OLD(original);
  const newText = oldText.replace(/^/gm, '// edited: ');
  return [
    {
      what: `whole file (${READ_FILE}, ${original.split('\n').length - 1} lines)`,
      same: [same.numbered, same.raw],
      ours: () => callText(tb, 'read_file', { path: READ_FILE }),
      theirs: () => callText(fs, 'read_text_file', { path: abs(READ_FILE) }),
      raw: original,
    },
    {
      what: `directory listing (${LIST_DIR})`,
      same: [same.ourNames, same.theirNames],
      ours: () => callText(tb, 'list_directory', { path: LIST_DIR }),
      theirs: () => callText(fs, 'list_directory', { path: abs(LIST_DIR) }),
    },
    {
      what: 'recursive listing: glob `**/*` vs directory_tree',
      same: [same.ourGlob, same.theirTree],
      key: 'recursive',
      ours: () => callText(tb, 'glob', { pattern: '**/*', limit: 2000 }),
      theirs: () => callText(fs, 'directory_tree', { path: root }),
    },
    {
      what: 'recursive listing: list_directory depth 5 vs directory_tree',
      same: [same.ourTree, same.theirTree],
      ours: () => callText(tb, 'list_directory', { path: '.', depth: 5 }),
      theirs: () => callText(fs, 'directory_tree', { path: root }),
    },
    {
      what: `file search by name (\`${NAME_GLOB}\`)`,
      same: [same.ourPaths, same.theirPaths(root)],
      ours: () => callText(tb, 'glob', { pattern: NAME_GLOB }),
      theirs: () => callText(fs, 'search_files', { path: root, pattern: NAME_GLOB }),
    },
    {
      what: `20 content matches (\`${GREP_PATTERN}\`) vs \`rg -n --heading\``,
      same: [same.grepLines, same.grepLines],
      key: 'grep',
      anchor: 'rg -n --heading',
      ours: () => callText(tb, 'grep', { pattern: GREP_PATTERN }),
      theirs: async () => {
        const out = execFileSync('rg', ['-n', '--heading', '--sort', 'path', GREP_PATTERN], {
          cwd: root,
          encoding: 'utf8',
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        const matches = out.split('\n').filter((l) => /^\d+:/.test(l)).length;
        if (matches !== 20) throw new Error(`the corpus changed: ${GREP_PATTERN} matches ${matches} lines, not 20`);
        return out;
      },
    },
    {
      what: `the same matches, output_mode lines vs \`rg -n\` (file:line:text)`,
      same: [same.grepLines, same.grepLines],
      key: 'grep-lines',
      anchor: 'rg -n',
      ours: () => callText(tb, 'grep', { pattern: GREP_PATTERN, output_mode: 'lines' }),
      theirs: async () => rg(root, ['-n', '--no-heading', '--sort', 'path', GREP_PATTERN]),
    },
    {
      what: `the same matches with 1 line before and 2 after vs \`rg -n --heading -B1 -A2\``,
      same: [same.grepLines, same.grepLines],
      key: 'grep-context',
      anchor: 'rg -n --heading -B1 -A2',
      ours: () => callText(tb, 'grep', { pattern: GREP_PATTERN, before: 1, after: 2 }),
      theirs: async () => rg(root, ['-n', '--heading', '--sort', 'path', '-B1', '-A2', GREP_PATTERN]),
    },
    {
      what: '2-line edit preview (toolbelt has no dry run: its answer to the applied edit)',
      theirs: () => callText(fs, 'edit_file', { path: abs(READ_FILE), edits: [{ oldText, newText }], dryRun: true }),
      ours: async () => {
        const text = await callText(tb, 'edit_file', { path: READ_FILE, old_string: oldText, new_string: newText });
        if (!readFileSync(abs(READ_FILE), 'utf8').includes(newText))
          throw new Error(`toolbelt edit_file did not apply: ${text}`);
        writeFileSync(abs(READ_FILE), original);
        return text;
      },
    },
    {
      what: 'error: missing file',
      ours: () => callText(tb, 'read_file', { path: 'v4/core/no-such-file.ts' }),
      theirs: () => callText(fs, 'read_text_file', { path: abs('v4/core/no-such-file.ts') }),
    },
    {
      what: 'error: outside the root',
      ours: () => callText(tb, 'read_file', { path: '/etc/hostname' }),
      theirs: () => callText(fs, 'read_text_file', { path: '/etc/hostname' }),
    },
    {
      what: 'error: bad parameter (line count as a word)',
      ours: () => callText(tb, 'read_file', { path: READ_FILE, limit: 'ten' }),
      theirs: () => callText(fs, 'read_text_file', { path: abs(READ_FILE), head: 'ten' }),
    },
    {
      // What a tool returning only structured data costs as text: one record per file of LIST_DIR.
      what: `structured result as text (${LIST_DIR}: path, lines, bytes per file), structuredText toon vs json`,
      key: 'toon',
      anchor: 'pretty JSON',
      ours: async () => structuredText({ files: fileRecords(abs(LIST_DIR)) }, 'toon'),
      theirs: async () => structuredText({ files: fileRecords(abs(LIST_DIR)) }, 'json'),
    },
  ];
}

function rg(cwd, args) {
  return execFileSync('rg', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/** Path, line count and size of each file directly in `dir`, sorted by path. */
function fileRecords(dir) {
  return readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => e.name)
    .sort()
    .map((name) => ({
      path: name,
      lines: readFileSync(join(dir, name), 'utf8').split('\n').length,
      bytes: statSync(join(dir, name)).size,
    }));
}
