// After `changeset version`: writes the packages' new version into core's VERSION (version.ts),
// which `toolbelt --version`, MCP and the OpenAPI file report. One version for all: a fixed group.
import { readFileSync, writeFileSync } from 'node:fs';

const root = new URL('..', import.meta.url);
const { version } = JSON.parse(readFileSync(new URL('packages/core/package.json', root), 'utf8'));
const file = new URL('packages/core/src/version.ts', root);
const before = readFileSync(file, 'utf8');
const after = before.replace(/^export const VERSION = '[^']*';$/m, `export const VERSION = '${version}';`);
if (!after.includes(`'${version}'`))
  throw new Error('packages/core/src/version.ts has no `export const VERSION = ...;` line to update');
writeFileSync(file, after);
console.log(`VERSION ${version}`);
