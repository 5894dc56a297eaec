// The README's examples are product: they must run as written.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

const README = readFileSync(fileURLToPath(new URL('../../../README.md', import.meta.url)), 'utf8');

function block(after: string, lang: string): string {
  const start = README.indexOf(`\`\`\`${lang}\n`, README.indexOf(after));
  return README.slice(start + lang.length + 4, README.indexOf('```', start + 3));
}

describe('README', () => {
  it('the library example runs and returns what its comment says', async () => {
    const code = block('## As a library', 'ts');
    const dir = mkdtempSync(join(fileURLToPath(new URL('.', import.meta.url)), '.readme-'));
    try {
      const file = join(dir, 'example.ts');
      writeFileSync(file, `${code}\nexport { result, definitions };\n`);
      const mod = await import(pathToFileURL(file).href);
      expect(mod.result.status).toBe('success');
      expect(mod.result.content[0].text).toMatch(/^released to staging \(tc_/);
      expect(mod.definitions.find((d: { name: string }) => d.name === 'deploy')).toMatchObject({ input_schema: { type: 'object' } });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the MCP snippet is valid JSON that points at the CLI bin', () => {
    const snippet = JSON.parse(block('## As an MCP server', 'json'));
    expect(snippet.mcpServers.toolbelt.args[0]).toMatch(/packages\/cli\/bin\/toolbelt\.js$/);
    expect(snippet.mcpServers.toolbelt.args).toContain('mcp');
  });

  it('the config example is a valid toolbelt.config.json', async () => {
    const { parseConfig } = await import('./config/load.js');
    expect(() => parseConfig('README', block('## Configuration', 'json'))).not.toThrow();
  });
});
