#!/usr/bin/env node
// Builds commands.jsonl and workspace.json from the transcribed sources (raw-*.txt): each raw
// line is one command as its source prints it, under an "@ path commit" header naming the file
// it came from. Placeholders ({{path/to/file}}, {{[-n|--lines]}}, {{commit}}) become concrete
// words and paths inside the test workspace, by fixed rules, so the corpus is the same on every
// run. Run it again after editing a raw file: node build-corpus.mjs
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const SOURCES = {
  tldr: { repo: 'tldr-pages/tldr', licence: 'CC-BY-4.0' },
  oneliner: { repo: 'onceupon/Bash-Oneliner', licence: 'MIT' },
};

// Placeholder words → concrete ones (the rest keep their own text, braces removed).
const WORDS = {
  root_path: '.',
  path: 'path/to/file',
  PATHSPEC: '.',
  directory: 'path/to/directory',
  source: 'path/to/file',
  target: 'path/to/target',
  file_glob_pattern: '*.txt',
  glob_pattern: '*.txt',
  glob: '*.log',
  prefix: 'file',
  suffix: '.txt',
  file_type: 'txt',
  username: 'root',
  uid_number: '0',
  pid: '1',
  process_name: 'bash',
  program: 'ls',
  executable: 'ls',
  arguments_source: 'ls',
  somecommand: 'ls',
  remote_name: 'origin',
  branch: 'feature',
  branch_name: 'feature',
  tag: 'v1.0.0',
  tag_name: 'v1.0.0',
  'v1.0.0': 'v1.0.0',
};
const COMMITISH = /^(commit(_hash|_1|_2)?|ancestor_commit|revision|8c442dc3)$/;

/** One {{…}} placeholder's concrete text; `first` says whether it starts the command. */
function fill(inner, first) {
  let t = inner;
  const bracket = /^\[(.*)\]$/.exec(t);
  if (bracket && bracket[1].includes('|')) t = bracket[1].split('|')[0];
  else if (t.includes('|') && t.split('|').every((alt) => /^[-\w.+=/]*$/.test(alt))) t = t.split('|')[0];
  t = t.replace(/\[[^\]]*\|[^\]]*\]/g, ''); // source.tar[.gz|.bz2|.xz]
  if (COMMITISH.test(t)) return 'HEAD~1';
  if (t === 'command') return first ? 'ls' : 'wc';
  if (t in WORDS) return WORDS[t];
  return t
    .replace(/^\/path\/to\//, 'path/to/')
    .replace(/ \.\.\.$/, '')
    .replace(/\(s\)/g, 's');
}

function concrete(raw) {
  let out = '';
  let last = 0;
  for (const m of raw.matchAll(/\{\{(.*?)\}\}(?!\})/g)) {
    out += raw.slice(last, m.index) + fill(m[1], m.index === 0);
    last = m.index + m[0].length;
  }
  out += raw.slice(last);
  // Paths the sources write absolute as examples (/path/to/…) live in the workspace.
  return out.replace(/(^|[\s=])\/path\/to\//g, '$1path/to/').trim();
}

// Words of the commands that name files or directories the workspace must hold.
const FILE_WORD =
  /^(path\/to\/[\w./-]*|[\w-]*file[\w-]*(\.\w+)*|\w+\.(txt|json|md5|sha1|sha256|sha512|tar|gz|bz2|xz|zip|ts|js|py|log|class|fastq|patch|php|mso|pem))$/i;
const DIR_WORD = /(directory|folder|dir\d?|\/)$/;

function workspaceEntries(commands) {
  const entries = {};
  for (const c of commands) {
    for (const w of c.split(/[\s'"`<>|;&()=]+/)) {
      if (!FILE_WORD.test(w) || w.startsWith('-') || w.includes('..') || w.includes('*')) continue;
      const clean = w.replace(/\/+$/, '');
      if (!clean || clean === 'path/to') continue;
      entries[clean] = DIR_WORD.test(w) || /directory|folder/.test(clean) ? 'dir' : (entries[clean] ?? 'file');
    }
  }
  // A parent of another entry is a directory.
  for (const p of Object.keys(entries)) for (let d = dirname(p); d !== '.'; d = dirname(d)) entries[d] = 'dir';
  return Object.fromEntries(Object.entries(entries).sort(([a], [b]) => a.localeCompare(b)));
}

const seen = new Set();
const rows = [];
for (const name of readdirSync(here)
  .filter((f) => /^raw-.*\.txt$/.test(f))
  .sort()) {
  const source = SOURCES[name.replace(/^raw-(\w+)-\d+\.txt$/, '$1')];
  if (!source) throw new Error(`${name}: no source for this raw file`);
  let header;
  for (const line of readFileSync(join(here, name), 'utf8').split('\n')) {
    if (!line.trim()) continue;
    if (line.startsWith('@ ')) {
      const [path, commit] = line.slice(2).split(' ');
      header = { path, commit };
      continue;
    }
    const command = concrete(line);
    if (seen.has(command)) continue;
    seen.add(command);
    rows.push({
      id: rows.length + 1,
      command,
      raw: line,
      repo: source.repo,
      path: header.path,
      commit: header.commit,
      licence: source.licence,
    });
  }
}
writeFileSync(join(here, 'commands.jsonl'), rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
writeFileSync(
  join(here, 'workspace.json'),
  JSON.stringify(workspaceEntries(rows.map((r) => r.command)), null, 1) + '\n',
);
console.log(`${rows.length} commands from ${new Set(rows.map((r) => `${r.repo}/${r.path}`)).size} source files`);
