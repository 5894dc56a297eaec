// One containment rule for the workspace guard and the shell classifier.
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { belowRoot as classifierBelowRoot } from '../shell/classify/allow/tree.js';
import { belowRoot } from './below-root.js';
import { WorkspaceGuard } from './guard.js';

describe('belowRoot', () => {
  it('is the path below the root: "" for the root, undefined for a sibling with the same prefix or a parent', () => {
    expect(belowRoot('/srv/app', ['/srv/app'])).toBe('');
    expect(belowRoot('/srv/app/src/a.ts', ['/srv/app'])).toBe('src/a.ts');
    expect(belowRoot('/srv/app2/a.ts', ['/srv/app'])).toBeUndefined();
    expect(belowRoot('/srv', ['/srv/app'])).toBeUndefined();
    expect(belowRoot('/srv/app/..a', ['/srv/app'])).toBe('..a');
  });

  it('takes the nearest of nested roots', () => {
    expect(belowRoot('/srv/app/pkg/a.ts', ['/srv/app', '/srv/app/pkg'])).toBe('a.ts');
  });

  it('is the rule the guard and the classifier both use', () => {
    expect(classifierBelowRoot).toBe(belowRoot);
    const base = realpathSync(mkdtempSync(join(tmpdir(), 'tb-below-')));
    const root = join(base, 'app');
    mkdirSync(root);
    try {
      const guard = new WorkspaceGuard({ roots: [root] });
      for (const path of [root, join(root, 'x'), `${root}2/x`, base])
        expect(guard.inside(path), path).toBe(belowRoot(path, [root]) !== undefined);
    } finally {
      rmSync(base, { recursive: true, force: true });
    }
  });
});
