// Run by corpus-unprivileged.test.ts as an unprivileged user (setpriv, see sandbox/__fixtures__/
// nobody.ts): confines the corpus's judged reads with the built @toolbelt/tools' read-only sandbox
// exactly as toolbelt would for that user, runs each under strace there (jail.ts's runJailed, as
// plain JavaScript), and prints each run's exit code, output and trace as JSON.
// argv[2]: the tools package's dist directory; argv[3]: JSON { ws, home, homes, env, commands, width }.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const [dist, json] = process.argv.slice(2);
const { Sandbox, sandboxSettings } = await import(pathToFileURL(join(dist, 'index.js')).href);
const { ws, home, homes, env, commands, width } = JSON.parse(json);

const TRACE = ['-f', '-qq', '-e', 'trace=%file,%network,%desc,%process', '-o', '|cat >&3'];
const sandbox = new Sandbox(sandboxSettings(undefined, { env: { HOME: home } }), { homes: [homes] });
const confined = await sandbox.confine({ roots: [ws], cwd: ws, readOnly: true, network: false });

function run(script) {
  const inv = confined.wrap({ file: '/usr/bin/strace', args: [...TRACE, 'bash', '-c', script] });
  return new Promise((resolve) => {
    const child = spawn(inv.file, inv.args, { cwd: ws, env, stdio: ['ignore', 'pipe', 'pipe', 'pipe'] });
    let [out, trace, timedOut] = ['', '', false];
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, 4_000);
    child.stdout.on('data', (d) => (out += d.toString('utf8')));
    child.stderr.on('data', (d) => (out += d.toString('utf8')));
    child.stdio[3].on('data', (d) => (trace += d.toString('utf8')));
    child.once('error', (e) => resolve({ code: null, timedOut, out: String(e), trace }));
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, timedOut, out, trace });
    });
  });
}

const results = new Array(commands.length);
let next = 0;
const worker = async () => {
  while (next < commands.length) {
    const i = next++;
    results[i] = await run(commands[i]);
  }
};
await Promise.all(Array.from({ length: Math.min(width, commands.length) }, worker));
process.stdout.write(JSON.stringify({ uid: process.getuid(), results }));
