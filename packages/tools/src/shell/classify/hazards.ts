// Shapes that are dangerous whatever each command in them does: code piped from a download into
// an interpreter, and a function that calls itself in parallel (a fork bomb).
import type { Node } from 'web-tree-sitter';
import type { Finding, SimpleCommand } from './types.js';

const DOWNLOADERS = new Set(['curl', 'wget', 'fetch', 'http']);
const INTERPRETERS = new Set([
  'sh',
  'bash',
  'zsh',
  'dash',
  'ksh',
  'python',
  'python3',
  'perl',
  'ruby',
  'node',
  'php',
  'sudo',
]);

/** `curl ... | sh`: code from the network runs unseen. `parts` are a pipeline's simple commands. */
export function pipedCode(parts: SimpleCommand[]): Finding | undefined {
  const download = parts.findIndex((c) => DOWNLOADERS.has(c.name));
  if (download < 0) return undefined;
  const runner = parts
    .slice(download + 1)
    .find(
      (c) =>
        INTERPRETERS.has(c.name) &&
        !c.args.some((a) => a.value === '-c' || (!a.value.startsWith('-') && a.value !== '-')),
    );
  if (!runner) return undefined;
  return {
    effect: 'execute',
    detail: `${parts[download].name} | ${runner.name}`,
    warning: `runs code downloaded by ${parts[download].name} without showing it first`,
  };
}

/** `f() { f | f & }`: a function that calls itself twice, or once in the background. */
export function forkBomb(name: string, body: Node): Finding | undefined {
  const calls = body.descendantsOfType('command').filter((c) => c?.childForFieldName('name')?.text === name).length;
  const background = /(^|[^&<>|])&($|[^&>])/.test(body.text);
  if (calls < 2 && !(calls === 1 && background)) return undefined;
  return {
    effect: 'destructive',
    detail: `${name}() { … } (fork bomb)`,
    blocked: `${name}() is a fork bomb: it calls itself in parallel until the machine runs out of processes`,
  };
}
