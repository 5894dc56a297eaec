// Shell blocks: `sh` runs as one script that must succeed; `console` shows `$ command` lines, each
// followed by the output it must print; a block marked `server` starts each command, waits until it
// listens, asks it something over HTTP and stops it.
import { spawn, spawnSync } from 'node:child_process';
import { fillPaths, type DocWorkspace } from './workspace.js';

export interface Ran {
  status: number | null;
  output: string;
}

const TIMEOUT_MS = 30_000;

export function runScript(script: string, w: DocWorkspace): Ran {
  const r = spawnSync('bash', ['-c', `set -eo pipefail\n${fillPaths(script, w)}`], {
    cwd: w.ws,
    env: w.env,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: TIMEOUT_MS,
  });
  return { status: r.status, output: `${r.stdout}${r.stderr}${r.error ? `\n${r.error.message}` : ''}` };
}

/** A `console` block's commands, each with the output shown under it. */
export function consoleSteps(code: string): { command: string; expected: string }[] {
  const steps: { command: string; expected: string }[] = [];
  for (const line of code.split('\n')) {
    if (line.startsWith('$ ')) steps.push({ command: line.slice(2), expected: '' });
    else if (steps.length) steps[steps.length - 1].expected += `${line}\n`;
  }
  return steps;
}

/** The commands of a block, one a line (a trailing `\` joins lines), comments and blanks left out. */
export function commandLines(code: string): string[] {
  return code
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((l) => l.replace(/\s+#\s.*$/, '').trim())
    .filter((l) => l && !l.startsWith('#'));
}

/** A server command on a free port, so tests never collide: `--port 0` for serve, `--http 0` for mcp. */
export function onFreePort(command: string): string {
  if (/\btoolbelt mcp\b/.test(command)) return command.replace(/--http\s+\d+/, '--http 0');
  if (/\btoolbelt serve\b/.test(command)) return `${command.replace(/--port\s+\d+/, '')} --port 0`;
  throw new Error(`a server block runs toolbelt serve or toolbelt mcp --http, not: ${command}`);
}

export interface Server {
  url: string;
  output: () => string;
  stop: () => Promise<number | null>;
}

/** Starts a command in its own process group and resolves once it prints the URL it listens on. */
export function startServer(command: string, w: DocWorkspace): Promise<Server> {
  const child = spawn('bash', ['-c', fillPaths(command, w)], {
    cwd: w.ws,
    env: w.env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const stop = async () => {
    if (child.exitCode === null) process.kill(-child.pid!, 'SIGTERM');
    return exited;
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => void stop().then(() => reject(new Error(`no address printed in ${TIMEOUT_MS} ms:\n${out}`))),
      TIMEOUT_MS,
    );
    const seen = (d: Buffer) => {
      out += d;
      const m = /(?:listening on|tools at) (http:\/\/\S+?)(?:;|\s|$)/.exec(out);
      if (!m) return;
      clearTimeout(timer);
      resolve({ url: m[1].replace('0.0.0.0', '127.0.0.1'), output: () => out, stop });
    };
    child.stdout.on('data', seen);
    child.stderr.on('data', seen);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`exited with ${code} before listening:\n${out}`));
    });
  });
}
