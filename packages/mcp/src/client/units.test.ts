// Small pure pieces of the client: effects from hints, transports from config, results to outputs.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { effectFromAnnotations } from './effect.js';
import { limitedCommand, shouldFallBackToSse, transportKind } from './transport.js';
import { errorText, toToolOutput } from './content.js';

describe('effectFromAnnotations', () => {
  it('believes readOnlyHint only from a trusted server; anything not read or destructive is execute', () => {
    expect(effectFromAnnotations({ readOnlyHint: true })).toBe('execute');
    expect(effectFromAnnotations({ readOnlyHint: true }, { trust: 'read' })).toBe('read');
    expect(effectFromAnnotations({ destructiveHint: true })).toBe('destructive');
    expect(effectFromAnnotations({ readOnlyHint: true, destructiveHint: true }, { trust: 'read' })).toBe('destructive');
    expect(effectFromAnnotations(undefined, { trust: 'read' })).toBe('execute');
    expect(effectFromAnnotations({ destructiveHint: false })).toBe('execute');
  });

  it('never goes below the configured floor', () => {
    expect(effectFromAnnotations({ readOnlyHint: true }, { trust: 'read', minEffect: 'write' })).toBe('write');
    expect(effectFromAnnotations({ readOnlyHint: true }, { trust: 'read', minEffect: 'execute' })).toBe('execute');
    expect(effectFromAnnotations({ destructiveHint: true }, { minEffect: 'write' })).toBe('destructive');
    expect(effectFromAnnotations({}, { minEffect: 'destructive' })).toBe('destructive');
  });
});

describe('transportKind', () => {
  it('picks stdio for a command, http for a url, and says what is missing otherwise', () => {
    expect(transportKind({ command: 'x' })).toBe('stdio');
    expect(transportKind({ url: 'http://127.0.0.1/mcp' })).toBe('http');
    expect(transportKind({ url: 'http://127.0.0.1/sse', transport: 'sse' })).toBe('sse');
    expect(transportKind({ transport: 'stdio' })).toEqual({ problem: 'transport "stdio" needs a "command"' });
    expect(transportKind({ transport: 'http' })).toEqual({ problem: 'transport "http" needs a "url"' });
    expect(transportKind({})).toMatchObject({ problem: expect.stringContaining('give either') });
  });

  it('falls back to SSE on a 404 or 405, never on an auth failure', () => {
    expect(shouldFallBackToSse({ code: 404 })).toBe(true);
    expect(shouldFallBackToSse({ code: 405 })).toBe(true);
    expect(shouldFallBackToSse({ code: 401 })).toBe(false);
    expect(shouldFallBackToSse(new Error('ECONNREFUSED'))).toBe(false);
  });
});

describe('limitedCommand', () => {
  it("wraps the command in ulimit calls on Linux and exec's it with its arguments intact", () => {
    const out = limitedCommand(
      { command: 'srv', args: ['a b', '$HOME'], limits: { cpuSeconds: 10, memoryMb: 512, openFiles: 100 } },
      'linux',
    );
    expect(out.command).toBe('/bin/sh');
    const found =
      '{ command -v "$1" >/dev/null || { echo "toolbelt: the command \\"$1\\" was not found" >&2; exit 127; }; }';
    expect(out.args).toEqual([
      '-c',
      `ulimit -t 10 && ulimit -v 524288 && ulimit -n 100 && ${found} && exec "$@"`,
      'toolbelt-mcp',
      'srv',
      'a b',
      '$HOME',
    ]);
  });

  it.skipIf(process.platform !== 'linux')('a program that is not there is named once, plainly, with exit 127', () => {
    const out = limitedCommand({ command: 'toolbelt-no-such-command', limits: { openFiles: 40 } }, 'linux');
    const r = spawnSync(out.command, out.args, { encoding: 'utf8' });
    expect(r.status).toBe(127);
    expect(r.stderr).toBe('toolbelt: the command "toolbelt-no-such-command" was not found\n');
  });

  it('leaves the command alone without limits or off Linux', () => {
    expect(limitedCommand({ command: 'srv', args: ['x'] }, 'linux')).toEqual({ command: 'srv', args: ['x'] });
    expect(limitedCommand({ command: 'srv', limits: { openFiles: 5 } }, 'darwin')).toEqual({
      command: 'srv',
      args: [],
    });
  });
});

describe('toToolOutput', () => {
  it('keeps text and images, reads resources and links as text, and keeps structured content', () => {
    const out = toToolOutput(
      {
        content: [
          { type: 'text', text: 'hi' },
          { type: 'image', data: 'AAAA', mimeType: 'image/png' },
          { type: 'resource', resource: { uri: 'file:///a.txt', mimeType: 'text/plain', text: 'inside' } },
          { type: 'resource', resource: { uri: 'file:///b.bin', blob: 'AAAA' } },
          { type: 'resource_link', uri: 'file:///c', name: 'c' },
          { type: 'audio', data: 'AAAA', mimeType: 'audio/wav' },
        ],
        structuredContent: { n: 1 },
      },
      's',
      't',
    );
    expect(out.content).toEqual([
      { type: 'text', text: 'hi' },
      { type: 'image', data: 'AAAA', mimeType: 'image/png' },
      { type: 'text', text: 'Resource file:///a.txt (text/plain):\ninside' },
      { type: 'text', text: '[resource file:///b.bin, 3 bytes of binary data]' },
      { type: 'text', text: 'Resource link: c <file:///c>' },
      { type: 'text', text: '[audio audio/wav, 3 bytes]' },
    ]);
    expect(out.structured).toEqual({ n: 1 });
  });

  it('takes the text of an error result, or says there was none', () => {
    expect(errorText({ content: [{ type: 'text', text: ' no such file ' }], isError: true })).toBe('no such file');
    expect(errorText({ content: [], isError: true })).toBe('no details given');
  });
});
