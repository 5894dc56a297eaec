// Colour for the terminal, only where a person reads it: a terminal stream, NO_COLOR unset
// (https://no-color.org: any non-empty value turns colour off), TERM not "dumb"; FORCE_COLOR forces it.
import pc from 'picocolors';

export type Style = ReturnType<typeof pc.createColors>;

type Env = Record<string, string | undefined>;

export function colorEnabled(stream: object, env: Env = process.env): boolean {
  if (env.NO_COLOR) return false;
  if (env.FORCE_COLOR && env.FORCE_COLOR !== '0') return true;
  return Boolean((stream as { isTTY?: boolean }).isTTY) && env.TERM !== 'dumb';
}

export function styleFor(stream: object, env: Env = process.env): Style {
  return pc.createColors(colorEnabled(stream, env));
}
