import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from './config.js';

describe('parseConfig', () => {
  it('accepts a full config', () => {
    const c = parseConfig('t.json', JSON.stringify({ mode: 'auto-edit', rules: [{ tool: 'shell_exec', command: 'npm test', action: 'allow' }], mcpServers: { fs: { command: 'npx', args: ['x'] } }, toolSettings: { read_file: { timeoutMs: 5000 } }, shell: { maxOutputFileBytes: 0 } }));
    expect(c.mode).toBe('auto-edit');
    expect(c.shell?.maxOutputFileBytes).toBe(0);
    expect(c.rules?.[0].command).toBe('npm test');
  });

  it('reports unknown keys and wrong types with their paths, all at once', () => {
    let err: ConfigError | undefined;
    try {
      parseConfig('t.json', { mode: 'fast', rules: [{ tool: 'x', action: 'maybe' }], bogus: 1, toolSettings: { a: { timeoutMs: 'slow' } } });
    } catch (e) {
      err = e as ConfigError;
    }
    expect(err).toBeInstanceOf(ConfigError);
    const text = err!.message;
    expect(text).toContain('t.json is invalid');
    expect(text).toMatch(/mode: /);
    expect(text).toMatch(/rules\[0\]\.action/);
    expect(text).toContain('unknown key "bogus"');
    expect(text).toMatch(/toolSettings\.a\.timeoutMs/);
  });

  it('accepts trust "read" for an MCP server and says what else it could be', () => {
    expect(parseConfig('t.json', { mcpServers: { fs: { command: 'x', trust: 'read', cwd: 'sub' } } }).mcpServers?.fs.trust).toBe('read');
    expect(() => parseConfig('t.json', { mcpServers: { fs: { command: 'x', trust: 'all' } } })).toThrow('mcpServers.fs.trust: use "read" (believe this server\'s readOnlyHint) or leave "trust" out');
  });

  it('says when the file is not JSON', () => {
    expect(() => parseConfig('t.json', '{ mode: ')).toThrow(/not valid JSON/);
  });
});
