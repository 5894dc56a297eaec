// File types for grep's `type` filter. Both engines use this one table (rg gets it through
// --type-add), so a type means the same files whichever engine runs.
import picomatch from 'picomatch';
import type { Verdict } from './gitignore.js';

const FILE_TYPES: Readonly<Record<string, readonly string[]>> = {
  c: ['*.c', '*.h'],
  cpp: ['*.cpp', '*.cc', '*.cxx', '*.c++', '*.hpp', '*.hh', '*.hxx', '*.h', '*.inl'],
  cs: ['*.cs', '*.csx'],
  css: ['*.css', '*.scss', '*.sass', '*.less'],
  dart: ['*.dart'],
  docker: ['Dockerfile', 'Dockerfile.*', '*.dockerfile', 'Containerfile'],
  elixir: ['*.ex', '*.exs', '*.heex'],
  go: ['*.go', 'go.mod', 'go.sum'],
  haskell: ['*.hs', '*.lhs'],
  html: ['*.html', '*.htm', '*.xhtml'],
  java: ['*.java', '*.jsp'],
  js: ['*.js', '*.jsx', '*.mjs', '*.cjs'],
  json: ['*.json', '*.jsonc', '*.json5', '*.jsonl'],
  kotlin: ['*.kt', '*.kts'],
  lua: ['*.lua'],
  make: ['Makefile', 'makefile', 'GNUmakefile', '*.mk', '*.mak'],
  md: ['*.md', '*.markdown', '*.mdx'],
  php: ['*.php', '*.phtml'],
  proto: ['*.proto'],
  py: ['*.py', '*.pyi', '*.pyw'],
  r: ['*.r', '*.R', '*.Rmd'],
  ruby: ['*.rb', '*.rake', '*.gemspec', 'Gemfile', 'Rakefile'],
  rust: ['*.rs'],
  scala: ['*.scala', '*.sc', '*.sbt'],
  sh: ['*.sh', '*.bash', '*.zsh', '*.ksh', '.bashrc', '.zshrc', '.profile'],
  sql: ['*.sql'],
  svelte: ['*.svelte'],
  swift: ['*.swift'],
  toml: ['*.toml'],
  ts: ['*.ts', '*.tsx', '*.mts', '*.cts'],
  txt: ['*.txt'],
  vue: ['*.vue'],
  xml: ['*.xml', '*.xsd', '*.xsl', '*.xslt', '*.svg'],
  yaml: ['*.yaml', '*.yml'],
};

const ALIASES: Record<string, string> = {
  typescript: 'ts',
  javascript: 'js',
  python: 'py',
  rb: 'ruby',
  rs: 'rust',
  markdown: 'md',
  yml: 'yaml',
  golang: 'go',
  shell: 'sh',
  bash: 'sh',
};

/** Globs for a comma-separated list of type names; throws a message listing the known names. */
export function typeGlobs(spec: string): string[] {
  const globs: string[] = [];
  for (const raw of spec
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean)) {
    const name = ALIASES[raw] ?? raw;
    const found = FILE_TYPES[name];
    if (!found)
      throw new Error(
        `unknown file type "${raw}"; known types: ${Object.keys(FILE_TYPES).join(', ')}. Or use glob, e.g. "*.ext".`,
      );
    globs.push(...found);
  }
  return [...new Set(globs)];
}

/** ripgrep's type matching: on the file name only; with types selected, other files are excluded. */
export class TypeFilter {
  private readonly res: RegExp[];

  constructor(readonly globs: readonly string[]) {
    this.res = globs.map((g) => picomatch.makeRe(g, { dot: true, noextglob: true, nonegate: true }));
  }

  matched(name: string, isDir: boolean): Verdict {
    if (isDir || this.res.length === 0) return undefined;
    for (const re of this.res) if (re.test(name)) return 'whitelist';
    return 'ignore';
  }
}
