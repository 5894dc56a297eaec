import { describe, expect, it } from 'vitest';
import { Policy } from './policy.js';
import { commandHasPrefix } from './match.js';
import type { PolicyCall } from './types.js';
import type { DecisionStore, Remembered } from './types.js';

const call = (over: Partial<PolicyCall>): PolicyCall => ({
  tool: 't',
  effect: 'read',
  input: {},
  sessionId: 's',
  ...over,
});

describe('modes', () => {
  const cases: [string, string, string][] = [
    ['ask', 'read', 'ask'],
    ['ask', 'destructive', 'ask'],
    ['safe', 'read', 'allow'],
    ['safe', 'write', 'ask'],
    ['safe', 'execute', 'ask'],
    ['auto-edit', 'write', 'allow'],
    ['auto-edit', 'execute', 'ask'],
    ['auto-edit', 'destructive', 'ask'],
    ['yolo', 'destructive', 'allow'],
    ['yolo', 'execute', 'allow'],
  ];
  for (const [mode, effect, action] of cases) {
    it(`${mode} says ${action} for ${effect}`, () => {
      const d = new Policy({ mode: mode as never }).decide(call({ effect: effect as never }));
      expect(d.action).toBe(action);
      expect(d.source).toBe('mode');
    });
  }
});

describe('rules', () => {
  it('the last matching rule wins, so later rules override earlier ones', () => {
    const p = new Policy({
      mode: 'ask',
      rules: [
        { tool: 'git_*', action: 'allow' },
        { tool: 'git_push', action: 'ask' },
      ],
    });
    expect(p.decide(call({ tool: 'git_status' })).action).toBe('allow');
    expect(p.decide(call({ tool: 'git_push' })).action).toBe('ask');
    expect(p.decide(call({ tool: 'git_push' })).ruleIndex).toBe(1);
  });

  it('an allow rule for a command prefix needs every simple command to match', () => {
    const p = new Policy({ mode: 'ask', rules: [{ tool: 'shell_exec', command: 'ls', action: 'allow' }] });
    expect(p.decide(call({ tool: 'shell_exec', effect: 'execute', subject: { commands: ['ls -la'] } })).action).toBe(
      'allow',
    );
    expect(
      p.decide(call({ tool: 'shell_exec', effect: 'execute', subject: { commands: ['ls', 'rm -rf x'] } })).action,
    ).toBe('ask');
  });

  it('a deny rule for a command prefix matches when any simple command does', () => {
    const p = new Policy({ mode: 'yolo', rules: [{ command: 'git push', action: 'deny' }] });
    expect(
      p.decide(call({ effect: 'execute', subject: { commands: ['echo hi', 'git push origin main'] } })).action,
    ).toBe('deny');
    expect(p.decide(call({ effect: 'execute', subject: { commands: ['git pushx'] } })).action).toBe('allow');
  });

  it('matches relative path globs from each workspace root', () => {
    const p = new Policy({
      mode: 'ask',
      roots: ['/srv/app'],
      rules: [{ tool: 'write_file', path: 'src/**', action: 'allow' }],
    });
    expect(
      p.decide(call({ tool: 'write_file', effect: 'write', subject: { paths: ['/srv/app/src/a/b.ts'] } })).action,
    ).toBe('allow');
    expect(
      p.decide(call({ tool: 'write_file', effect: 'write', subject: { paths: ['/srv/app/test/b.ts'] } })).action,
    ).toBe('ask');
    expect(
      p.decide(call({ tool: 'write_file', effect: 'write', subject: { paths: ['/srv/app2/src/b.ts'] } })).action,
    ).toBe('ask');
  });

  it('matches arguments exactly or by pattern, all of them', () => {
    const p = new Policy({
      mode: 'ask',
      rules: [{ tool: 'deploy', args: { env: 'staging', region: { pattern: '^eu-' } }, action: 'allow' }],
    });
    expect(p.decide(call({ tool: 'deploy', input: { env: 'staging', region: 'eu-west' } })).action).toBe('allow');
    expect(p.decide(call({ tool: 'deploy', input: { env: 'prod', region: 'eu-west' } })).action).toBe('ask');
    expect(p.decide(call({ tool: 'deploy', input: { env: 'staging' } })).action).toBe('ask');
  });

  it('filters rules by effect and URL', () => {
    const p = new Policy({
      mode: 'ask',
      rules: [
        { effect: ['read'], action: 'allow' },
        { url: 'https://api.example.com/**', action: 'allow' },
      ],
    });
    expect(p.decide(call({ effect: 'read' })).action).toBe('allow');
    expect(p.decide(call({ effect: 'write' })).action).toBe('ask');
    expect(p.decide(call({ effect: 'write', subject: { urls: ['https://api.example.com/v1/x'] } })).action).toBe(
      'allow',
    );
  });
});

describe('hard denies and blocked calls', () => {
  it('no mode or rule overrides a hard deny', () => {
    const p = new Policy({ mode: 'yolo', rules: [{ action: 'allow' }] });
    const d = p.decide(call({ tool: 'shell_exec', effect: 'destructive', subject: { commands: ['rm -rf /'] } }));
    expect(d).toMatchObject({ action: 'deny', source: 'hard-deny' });
  });

  it('a call the tool marked blocked is denied before anything else', () => {
    const p = new Policy({ mode: 'yolo' });
    const d = p.decide(call({ floor: { level: 'blocked', reason: 'fork bomb' } }));
    expect(d).toMatchObject({ action: 'deny', source: 'blocked' });
    expect(d.reason).toContain('fork bomb');
  });

  it('a call the tool says must always be confirmed is asked even in yolo, over allow rules and remembered approvals', async () => {
    const p = new Policy({ mode: 'yolo', rules: [{ tool: 'git_push', action: 'allow' }] });
    await p.remember({ kind: 'tool', tool: 'git_push' }, 'always', 's');
    expect(
      p.decide(call({ tool: 'git_push', effect: 'destructive', floor: { level: 'always-ask', reason: 'force push' } })),
    ).toMatchObject({
      action: 'ask',
      source: 'always-ask',
    });
    expect(p.decide(call({ tool: 'git_push', effect: 'destructive' })).action).toBe('allow');
    const denied = new Policy({ mode: 'yolo', rules: [{ tool: 'git_push', action: 'deny' }] });
    expect(denied.decide(call({ tool: 'git_push', floor: { level: 'always-ask', reason: 'force push' } })).action).toBe(
      'deny',
    );
  });

  it('a call the tool says to ask first is asked even in yolo, unless a rule allows it or a person approved it', async () => {
    const yolo = new Policy({ mode: 'yolo' });
    expect(
      yolo.decide(call({ tool: 'mail_send', effect: 'execute', floor: { level: 'ask-first', reason: 'sends mail' } })),
    ).toMatchObject({
      action: 'ask',
      source: 'ask-first',
    });
    const allowed = new Policy({ mode: 'safe', rules: [{ tool: 'mail_send', action: 'allow' }] });
    expect(
      allowed.decide(
        call({ tool: 'mail_send', effect: 'execute', floor: { level: 'ask-first', reason: 'sends mail' } }),
      ),
    ).toMatchObject({
      action: 'allow',
      source: 'rule',
    });
    await yolo.remember({ kind: 'tool', tool: 'mail_send' }, 'session', 's');
    expect(
      yolo.decide(call({ tool: 'mail_send', effect: 'execute', floor: { level: 'ask-first', reason: 'sends mail' } }))
        .source,
    ).toBe('remembered');
  });

  it('config hard denies add to the defaults', () => {
    const p = new Policy({ mode: 'yolo', hardDeny: [{ tool: 'db_*', action: 'deny' }] });
    expect(p.decide(call({ tool: 'db_drop' })).source).toBe('hard-deny');
  });
});

describe('remembered decisions', () => {
  it('a remembered prefix allows commands that start with it, all parts of a compound', async () => {
    const p = new Policy({ mode: 'ask' });
    await p.remember({ kind: 'prefix', tool: 'shell_exec', prefix: 'npm run test' }, 'session', 's');
    const sh = (commands: string[]) =>
      p.decide(call({ tool: 'shell_exec', effect: 'execute', subject: { commands } })).action;
    expect(sh(['npm run test -- -u'])).toBe('allow');
    expect(sh(['npm run test', 'rm -rf build'])).toBe('ask');
    expect(sh(['npm run testx'])).toBe('ask');
  });

  it('an exact remembered compound command never covers one of its parts', async () => {
    const p = new Policy({ mode: 'ask' });
    await p.remember({ kind: 'exact', tool: 'shell_exec', command: 'ls && rm -rf build' }, 'session', 's');
    const d = (command: string, commands: string[]) =>
      p.decide(call({ tool: 'shell_exec', effect: 'execute', subject: { command, commands } })).action;
    expect(d('ls &&  rm -rf build', ['ls', 'rm -rf build'])).toBe('allow');
    expect(d('rm -rf build', ['rm -rf build'])).toBe('ask');
  });

  it('a remembered tool never covers a tool that runs commands', async () => {
    const p = new Policy({ mode: 'ask' });
    await p.remember({ kind: 'tool', tool: 'shell_exec' }, 'session', 's');
    expect(p.decide(call({ tool: 'shell_exec', subject: { commands: ['ls'] } })).action).toBe('ask');
  });

  it('a remembered path covers files under it only', async () => {
    const p = new Policy({ mode: 'ask' });
    await p.remember({ kind: 'path', tool: 'write_file', path: '/w/src' }, 'session', 's');
    const d = (path: string) =>
      p.decide(call({ tool: 'write_file', effect: 'write', subject: { paths: [path] } })).action;
    expect(d('/w/src/a.ts')).toBe('allow');
    expect(d('/w/srcx/a.ts')).toBe('ask');
  });

  it('an approval remembered for a milder effect never covers a more severe call', async () => {
    const p = new Policy({ mode: 'ask' });
    await p.remember({ kind: 'prefix', tool: 'shell_exec', prefix: 'git push' }, 'session', 's', 'execute');
    const d = (effect: 'execute' | 'destructive') =>
      p.decide(call({ tool: 'shell_exec', effect, subject: { commands: ['git push origin main'] } })).action;
    expect(d('execute')).toBe('allow');
    expect(d('destructive')).toBe('ask');
  });

  it('a deny rule beats a remembered approval', async () => {
    const p = new Policy({ mode: 'ask', rules: [{ tool: 'x', action: 'deny' }] });
    await p.remember({ kind: 'tool', tool: 'x' }, 'always', 's');
    expect(p.decide(call({ tool: 'x' })).action).toBe('deny');
  });

  it('"always" decisions are saved to the store and loaded by the next policy', async () => {
    const saved: Remembered[] = [];
    const store: DecisionStore = { load: () => [...saved], save: (e) => void saved.push(e) };
    const p1 = new Policy({ mode: 'ask', store });
    await p1.remember({ kind: 'tool', tool: 'edit_file' }, 'always', 's1');
    await p1.remember({ kind: 'tool', tool: 'other' }, 'session', 's1');
    expect(saved).toHaveLength(1);
    const p2 = new Policy({ mode: 'ask', store });
    await p2.remembered.load();
    expect(p2.decide(call({ tool: 'edit_file', sessionId: 'another' })).source).toBe('remembered');
    expect(p2.decide(call({ tool: 'other', sessionId: 's1' })).action).toBe('ask');
  });
});

describe('sensitive paths', () => {
  const env = (tool?: string) => ({ ...(tool ? { tool } : {}), name: '.env' });
  it('only an allow rule that names the tool and spells out the secret opens it', () => {
    const p = new Policy({
      roots: ['/w'],
      rules: [
        { tool: 'read_file', path: '**/.env.local', action: 'allow' },
        { tool: 'read_file', path: 'config/.env', action: 'deny' },
        { tool: 'write_file', path: 'src/**', action: 'allow' },
        { path: 'lib/.env', action: 'allow' },
        { tool: 'read_*', path: 'pkg/.env', action: 'allow' },
      ],
    });
    expect(p.allowsSensitivePath('/w/app/.env.local', env('read_file'))).toBe(true);
    expect(p.allowsSensitivePath('/w/app/.env.local', env('grep'))).toBe(false);
    expect(p.allowsSensitivePath('/w/app/.env.local', env())).toBe(false);
    expect(p.allowsSensitivePath('/w/config/.env', env('read_file'))).toBe(false);
    expect(p.allowsSensitivePath('/w/src/.env', env('write_file'))).toBe(false);
    expect(p.allowsSensitivePath('/w/lib/.env', env('read_file'))).toBe(false);
    expect(p.allowsSensitivePath('/w/pkg/.env', env('read_file'))).toBe(false);
    expect(p.allowsSensitivePath('/w/.env', env('read_file'))).toBe(false);
  });

  it('a broad allow after an explicit one leaves it standing; a later deny closes it', () => {
    const rules = [
      { tool: 'read_file', path: 'src/.env', action: 'allow' as const },
      { tool: 'read_file', path: 'src/**', action: 'allow' as const },
    ];
    expect(new Policy({ roots: ['/w'], rules }).allowsSensitivePath('/w/src/.env', env('read_file'))).toBe(true);
    const closed = new Policy({
      roots: ['/w'],
      rules: [...rules, { tool: 'read_file', path: 'src/*', action: 'deny' }],
    });
    expect(closed.allowsSensitivePath('/w/src/.env', env('read_file'))).toBe(false);
  });
});

describe('commandHasPrefix', () => {
  it('matches word by word and tolerates extra spaces and a trailing *', () => {
    expect(commandHasPrefix('git  push origin', 'git push')).toBe(true);
    expect(commandHasPrefix('git push origin', 'git push *')).toBe(true);
    expect(commandHasPrefix('git pushx', 'git push')).toBe(false);
    expect(commandHasPrefix('git', 'git push')).toBe(false);
  });
});
