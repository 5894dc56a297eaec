// What "always approve" may remember for one simple command. A prefix is offered only where no
// longer command with the same prefix can be more dangerous than the one approved: remembered
// decisions are honoured whatever a later call's effect (`git push` must not cover `--force`).
import { cardFor, readSpecFor } from './allow/index.js';
import { handlerFor } from './commands/index.js';
import type { Effect, SimpleCommand } from './types.js';

const PACKAGE_MANAGERS = new Set(['npm', 'pnpm', 'yarn', 'bun']);
/** `npm run test`: the script name is part of the prefix. */
const RUNS_NAMED = new Set(['run', 'run-script', 'exec', 'x', 'dlx', 'task']);
const PM_SAFE = new Set([
  ...RUNS_NAMED,
  'test',
  't',
  'start',
  'build',
  'install',
  'i',
  'ci',
  'add',
  'lint',
  'ls',
  'list',
  'outdated',
  'view',
  'info',
  'why',
  'audit',
]);
const TOOLCHAINS = new Set([
  'go',
  'cargo',
  'make',
  'deno',
  'uv',
  'poetry',
  'just',
  'gradle',
  'mvn',
  'dotnet',
  'mix',
  'rake',
  'bundle',
  'composer',
  'swift',
  'zig',
]);
const INTERPRETERS = new Set(['node', 'python', 'python3', 'ruby', 'perl', 'php', 'bun', 'deno', 'tsx', 'ts-node']);
const VERB = /^[a-z][a-z0-9:_-]*$/;
const SCRIPT = /^[\w./-]+\.(js|mjs|cjs|ts|mts|py|rb|pl|php)$/;

function take(cmd: SimpleCommand, n: number): string {
  return cmd.tokens.slice(0, cmd.lead + n).join(' ');
}

function arg(cmd: SimpleCommand, i: number): string | undefined {
  const w = cmd.args[i];
  return w?.static ? w.value : undefined;
}

/** `effect` is the whole call's; a read-only command that reads a secret is not a plain read. */
export function rememberPrefix(cmd: SimpleCommand, effect: Effect): string | undefined {
  const name = cmd.name;
  const first = arg(cmd, 0);
  // A reader with no handler has no mode worse than reading; one that asked (a secret, a path
  // outside) must not teach "always" to cover the next such call.
  const card = cardFor(name);
  if (card?.prefixWords) {
    const n = card.prefixWords(cmd);
    return n ? take(cmd, n) : undefined;
  }
  if (!PACKAGE_MANAGERS.has(name) && readSpecFor(name))
    return effect === 'read' && !handlerFor(name) ? take(cmd, 1) : undefined;
  if (PACKAGE_MANAGERS.has(name) && first && PM_SAFE.has(first)) {
    if (!RUNS_NAMED.has(first)) return take(cmd, 2);
    const script = arg(cmd, 1);
    return script && VERB.test(script.replace(/[@/.]/g, '-')) ? take(cmd, 3) : undefined;
  }
  if (name === 'npx' || name === 'pnpx' || name === 'bunx')
    return first && !first.startsWith('-') ? take(cmd, 2) : undefined;
  if (TOOLCHAINS.has(name)) {
    if (!first || !VERB.test(first)) return take(cmd, 1);
    const target = arg(cmd, 1);
    return (first === 'run' || first === 'task') && target && VERB.test(target) ? take(cmd, 3) : take(cmd, 2);
  }
  if (INTERPRETERS.has(name)) {
    if (first === '-m' && arg(cmd, 1) && /^[\w.]+$/.test(arg(cmd, 1)!)) return take(cmd, 3);
    if (first && SCRIPT.test(first)) return take(cmd, 2);
    return undefined;
  }
  // A command we do not know is "execute" whatever its flags, so its name is a fair prefix.
  if (!handlerFor(name) && !name.includes('/')) return first && VERB.test(first) ? take(cmd, 2) : take(cmd, 1);
  return undefined;
}
