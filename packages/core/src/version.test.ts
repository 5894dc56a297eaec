import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { VERSION } from './version.js';

const PACKAGES = ['core', 'tools', 'mcp', 'client', 'gateway', 'cli'];
const manifest = (p: string) =>
  JSON.parse(readFileSync(new URL(`../../${p}/package.json`, import.meta.url), 'utf8')) as Record<string, any>;

describe('VERSION', () => {
  it('is the version of every @toolbelt package, and each depends on the others at it', () => {
    for (const p of PACKAGES) {
      const m = manifest(p);
      expect(m.version, p).toBe(VERSION);
      for (const [name, range] of Object.entries({ ...m.dependencies }))
        if (name.startsWith('@toolbelt/')) expect(range, `${p} -> ${name}`).toBe(VERSION);
    }
  });
});
