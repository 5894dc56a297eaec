// Every code block in README.md, docs/*.md and the packages' READMEs is a test: run, compiled or
// checked by its language (plan.ts), in a temp clone of this repository. See docs/architecture.md, "Docs that run".
import { afterAll, beforeAll, describe, it } from 'vitest';
import { allBlocks } from './blocks.js';
import { handling } from './plan.js';
import { runBlock } from './run.js';
import { compileBlocks, type Compiled } from './typescript.js';
import { createWorkspace, REPO, type DocWorkspace } from './workspace.js';

const blocks = allBlocks(REPO).map((b) => ({ b, h: handling(b) }));
let w: DocWorkspace;
let compiled: Compiled;

beforeAll(() => {
  w = createWorkspace();
  compiled = compileBlocks(
    blocks.filter(({ h }) => h.kind.startsWith('ts')).map(({ b }) => b),
    w,
  );
}, 120_000);

// The clone and what the blocks made in it: slow to remove on a busy machine.
afterAll(() => w?.dispose(), 60_000);

for (const file of [...new Set(blocks.map(({ b }) => b.file))]) {
  describe(file, () => {
    for (const { b, h } of blocks.filter(({ b }) => b.file === file)) {
      const name = `line ${b.line} (${b.lang || 'no language'}${b.marker ? `, ${b.marker.action}` : ''})`;
      if (h.kind === 'skip') it.skip(`${name}: ${h.reason}`, () => {});
      else it(name, () => runBlock(b, h, w, compiled), 60_000);
    }
  });
}
