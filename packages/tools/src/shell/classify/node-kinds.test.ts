// The closed table of grammar node kinds: it holds the grammar's kinds and nothing else, and a
// node whose kind is not listed makes the command ask (control: the same command, listed, reads).
import { createRequire } from 'node:module';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { tmpdir } from 'node:os';
import { afterAll, describe, expect, it } from 'vitest';
import { classifyCommand } from './classify.js';
import { NODE_KINDS, nodeKindProblem } from './node-kinds.js';

const dir = mkdtempSync(join(tmpdir(), 'tb-kinds-'));
writeFileSync(join(dir, 'a.txt'), 'a\n');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The named node kinds of the tree-sitter-bash grammar we load (hidden supertypes left out). */
function grammarKinds(): string[] {
  const require = createRequire(import.meta.url);
  const wasm = require.resolve('tree-sitter-bash/tree-sitter-bash.wasm');
  const types = JSON.parse(readFileSync(join(dirname(wasm), 'src', 'node-types.json'), 'utf8')) as {
    type: string;
    named: boolean;
  }[];
  return types.filter((t) => t.named && !t.type.startsWith('_')).map((t) => t.type);
}

const classify = (script: string) => classifyCommand(script, { cwd: dir, roots: [dir], home: dir, env: {} });

describe('the grammar node kinds the classifier judges', () => {
  it("lists every named kind of the grammar, and only those (and ERROR): a new grammar's kinds are decided here", () => {
    expect([...NODE_KINDS.keys()].sort()).toEqual([...grammarKinds(), 'ERROR'].sort());
  });

  it('says why an unlisted kind is not judged', () => {
    expect(nodeKindProblem('frobnicate_statement')).toMatch(/frobnicate_statement is not one we judge/);
    expect(nodeKindProblem('pipeline')).toBeUndefined();
  });

  it('asks when a node of the command is of an unlisted kind (control: listed, it reads)', async () => {
    const script = 'cat a.txt # a note';
    expect((await classify(script)).effect).toBe('read');
    const kinds = NODE_KINDS as Map<string, string>;
    const kept = kinds.get('comment')!;
    kinds.delete('comment');
    try {
      const c = await classify(script);
      expect(c.effect).not.toBe('read');
      expect(c.reason).toMatch(/comment is not one we judge/);
    } finally {
      kinds.set('comment', kept);
    }
  });
});
