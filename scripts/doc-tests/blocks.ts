// Every fenced code block of the project's Markdown, with the doc-test marker written right above it.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/** What a `<!-- doc-test: ACTION (given: a, b) — reason -->` comment above a block asks for. */
export interface Marker {
  action: string;
  /** Names a fragment uses without defining them (a model, an executor made elsewhere). */
  given: string[];
  reason: string;
}

export interface DocBlock {
  /** `README.md:22`: the file and the line of the opening fence. */
  id: string;
  file: string;
  line: number;
  lang: string;
  code: string;
  marker?: Marker;
  /** The expected output, from a block marked `output` right after this one. */
  output?: DocBlock;
}

const FENCE = /^(\s*)(`{3,}|~{3,})\s*([^\s`]*)/;
const MARKER = /^<!--\s*doc-test:\s*(.*?)\s*-->\s*$/;
const MARKER_BODY = /^([a-z-]+)(?:\s*\(given:\s*([^)]*)\))?(?:\s*(?:—|--)\s*(.+))?$/;

export function parseMarker(text: string): Marker {
  const m = MARKER_BODY.exec(text.trim());
  if (!m) return { action: `invalid: "${text}"`, given: [], reason: '' };
  const given = (m[2] ?? '')
    .split(',')
    .map((n) => n.trim())
    .filter(Boolean);
  return { action: m[1], given, reason: m[3]?.trim() ?? '' };
}

/** The fenced blocks of one Markdown text, in order; `file` names it in ids. */
export function extractBlocks(file: string, text: string): DocBlock[] {
  const lines = text.split('\n');
  const blocks: DocBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE.exec(lines[i]);
    if (!open) continue;
    const [, indent, fence, lang] = open;
    const start = i;
    const body: string[] = [];
    for (
      i++;
      i < lines.length && !(lines[i].trim().startsWith(fence) && lines[i].trim().replace(/[`~]/g, '') === '');
      i++
    ) {
      body.push(lines[i].startsWith(indent) ? lines[i].slice(indent.length) : lines[i]);
    }
    let above = start - 1;
    while (above >= 0 && lines[above].trim() === '') above--;
    const marked = above >= 0 ? MARKER.exec(lines[above].trim()) : null;
    const block: DocBlock = {
      id: `${file}:${start + 1}`,
      file,
      line: start + 1,
      lang: lang.toLowerCase(),
      code: body.join('\n') + '\n',
    };
    if (marked) block.marker = parseMarker(marked[1]);
    blocks.push(block);
  }
  return attachOutputs(blocks);
}

/** A block marked `output` is what the block before it prints; it is checked with that block. */
function attachOutputs(blocks: DocBlock[]): DocBlock[] {
  const out: DocBlock[] = [];
  for (const b of blocks) {
    const prev = out[out.length - 1];
    if (b.marker?.action === 'output' && prev && !prev.output) prev.output = b;
    else out.push(b);
  }
  return out;
}

/** README.md, docs/*.md and packages/<name>/README.md, relative to the repository root. */
export function docFiles(repo: string): string[] {
  const files = ['README.md'];
  for (const name of readdirSync(join(repo, 'docs')).sort()) if (name.endsWith('.md')) files.push(join('docs', name));
  for (const pkg of readdirSync(join(repo, 'packages')).sort()) {
    try {
      readFileSync(join(repo, 'packages', pkg, 'README.md'));
      files.push(join('packages', pkg, 'README.md'));
    } catch {
      // a package without a README
    }
  }
  return files.map((f) => relative(repo, join(repo, f)));
}

export function allBlocks(repo: string): DocBlock[] {
  return docFiles(repo).flatMap((f) => extractBlocks(f, readFileSync(join(repo, f), 'utf8')));
}
