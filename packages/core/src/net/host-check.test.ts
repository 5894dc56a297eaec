// The Host/Origin check shared by the gateway and the MCP HTTP server, and the bind rule.
import { describe, expect, it } from 'vitest';
import { assertSafeBind, BindRefusedError, isLoopback, isWildcard } from './bind.js';
import { HostCheck, HostConfigError, hostNameOf } from './host-check.js';

const howToAllow = (name: string) => `allow ${name}`;
const verdict = (c: HostCheck, host: string | undefined, origin?: string) => c.check(host, origin)?.header ?? 'ok';

describe('HostCheck', () => {
  it('accepts the local names and the bound address, with or without a port', () => {
    const c = new HostCheck({ boundHost: '10.0.0.5', howToAllow });
    for (const host of [
      'localhost',
      'localhost:7077',
      'LOCALHOST.',
      '127.0.0.1:1',
      '[::1]:7077',
      '[::1]',
      '10.0.0.5:7077',
    ])
      expect([host, verdict(c, host)]).toEqual([host, 'ok']);
    expect(c.names).toEqual(['localhost', '127.0.0.1', '[::1]', '10.0.0.5']);
  });

  it('refuses other names, malformed values and a missing Host, saying what to do', () => {
    const c = new HostCheck({ howToAllow });
    for (const host of [
      'attacker.example',
      'attacker.example:7077',
      '127.0.0.2',
      'localhost.attacker.example',
      'localhost@attacker.example',
      'attacker.example@localhost',
      'local host',
      '[::1',
      '',
      undefined,
    ]) {
      expect([host, verdict(c, host)]).toEqual([host, 'Host']);
    }
    expect(c.check('attacker.example:7077', undefined)!.message).toBe(
      'Host "attacker.example:7077" is not allowed: this server answers only requests addressed to localhost, 127.0.0.1, [::1], so a web page cannot reach it by pointing its own name at this machine (DNS rebinding). If clients really reach it as attacker.example, allow attacker.example.',
    );
    expect(c.check(undefined, undefined)!.message).toMatch(/no Host header/);
    expect(c.check('x'.repeat(5000), undefined)!.message.length).toBeLessThan(600);
  });

  it('never takes a wildcard bind address as a name clients use', () => {
    for (const boundHost of ['0.0.0.0', '::', '[::]'])
      expect(verdict(new HostCheck({ boundHost, howToAllow }), '0.0.0.0')).toBe('Host');
  });

  it('accepts configured hosts, ignoring their port', () => {
    const c = new HostCheck({
      allowedHosts: ['Gateway.Example.com:8443', 'fd00::1', '[fd00::2]:80', '192.168.1.9'],
      howToAllow,
    });
    for (const host of [
      'gateway.example.com',
      'gateway.example.com:1',
      '[fd00::1]:7077',
      '[fd00::2]',
      '192.168.1.9:7077',
    ])
      expect([host, verdict(c, host)]).toEqual([host, 'ok']);
    expect(() => new HostCheck({ allowedHosts: ['*'], howToAllow })).toThrow(HostConfigError);
    expect(() => new HostCheck({ allowedHosts: ['http://x.example/'], howToAllow })).toThrow(
      'allowed host "http://x.example/" is not a host name',
    );
  });

  it('accepts an Origin only from a page on an accepted host, or one configured exactly', () => {
    const c = new HostCheck({ allowedHosts: ['app.example'], allowedOrigins: ['https://ui.example.com'], howToAllow });
    for (const origin of [
      'http://localhost:5173',
      'https://127.0.0.1',
      'http://[::1]:3000',
      'https://app.example',
      'https://ui.example.com',
      'HTTPS://UI.EXAMPLE.COM/',
    ])
      expect([origin, verdict(c, 'localhost', origin)]).toEqual([origin, 'ok']);
    for (const origin of [
      'http://attacker.example',
      'null',
      'file://',
      'ws://localhost',
      'https://ui.example.com:444',
      '',
    ])
      expect([origin, verdict(c, 'localhost', origin)]).toEqual([origin, 'Origin']);
    expect(c.check('localhost', 'http://attacker.example:80')!.message).toBe(
      'Origin "http://attacker.example:80" is not allowed: only web pages served from localhost, 127.0.0.1, [::1], app.example may call this server. If pages on attacker.example should call it, allow attacker.example.',
    );
  });

  it('reads host names out of Host values', () => {
    expect([hostNameOf('A.example:80'), hostNameOf('[::1]:1'), hostNameOf('a b'), hostNameOf(':80')]).toEqual([
      'a.example',
      '::1',
      undefined,
      undefined,
    ]);
  });
});

describe('bind rule', () => {
  it('knows loopback and wildcard addresses', () => {
    for (const host of ['127.0.0.1', '127.1.2.3', 'localhost', '::1', '[::1]'])
      expect(isLoopback(host), host).toBe(true);
    for (const host of ['0.0.0.0', '::', '192.168.1.5', 'example.com']) expect(isLoopback(host), host).toBe(false);
    expect(['0.0.0.0', '::', '[::]', '127.0.0.1'].map(isWildcard)).toEqual([true, true, true, false]);
  });

  it('refuses a non-loopback address without a token, saying how to add one', () => {
    const advice = { what: 'a token', howTo: 'Pass --token-env VAR' };
    expect(() => assertSafeBind('127.0.0.1', false, advice)).not.toThrow();
    expect(() => assertSafeBind('0.0.0.0', true, advice)).not.toThrow();
    expect(() => assertSafeBind('0.0.0.0', false, advice)).toThrow(BindRefusedError);
    expect(() => assertSafeBind('0.0.0.0', false, advice)).toThrow(
      'refusing to listen on 0.0.0.0 without a token: anyone who can reach it could run tools. Pass --token-env VAR, or listen on 127.0.0.1.',
    );
  });
});
