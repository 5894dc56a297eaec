// Runs one doc block by its handling; throws an error that says which block, what it did and what the doc claims.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DocBlock } from './blocks.js';
import { outputMismatch } from './expect.js';
import { checkConfig, listClientTools, parseJson } from './json.js';
import type { Handling } from './plan.js';
import { commandLines, consoleSteps, onFreePort, runScript, startServer } from './shell.js';
import { runCompiled, type Compiled } from './typescript.js';
import { REPO, type DocWorkspace } from './workspace.js';

/** Emacs Lisp is not run here (the client's own tests run Emacs); each toolbelt- name it uses must be one toolbelt.el defines. */
function checkElisp(b: DocBlock): void {
  const source = readFileSync(join(REPO, 'clients/emacs/toolbelt.el'), 'utf8');
  const defined = new Set(
    [
      ...source.matchAll(/^\s*\((?:defun|defcustom|defvar|defvar-local|define-derived-mode|defalias)\s+'?([\w-]+)/gm),
    ].map((m) => m[1]),
  );
  const unknown = [...new Set(b.code.replace(/;.*$/gm, '').match(/\btoolbelt-[\w-]+/g) ?? [])].filter(
    (n) => !defined.has(n),
  );
  if (unknown.length) throw new Error(`${b.id}: toolbelt.el defines no ${unknown.join(', ')}`);
}

/** The address the docs give for `toolbelt serve`; a `gateway` block runs against a real one instead. */
const GATEWAY_URL = 'http://127.0.0.1:7077';

function checkOutput(b: DocBlock, printed: string): void {
  if (!b.output) return;
  const diff = outputMismatch(b.output.code, printed);
  if (diff) throw new Error(`${b.id}: the output shown at ${b.output.id} does not match; ${diff}`);
}

function shell(b: DocBlock, w: DocWorkspace): void {
  const r = runScript(b.code, w);
  if (r.status !== 0) throw new Error(`${b.id} exited with ${r.status}:\n${r.output}`);
  checkOutput(b, r.output);
}

function consoleBlock(b: DocBlock, w: DocWorkspace): void {
  const steps = consoleSteps(b.code);
  if (!steps.length) throw new Error(`${b.id}: a console block shows commands as "$ command" lines`);
  for (const s of steps) {
    const diff = outputMismatch(s.expected, runScript(s.command, w).output);
    if (diff) throw new Error(`${b.id}: $ ${s.command}\n${diff}`);
  }
}

async function servers(b: DocBlock, w: DocWorkspace): Promise<void> {
  for (const command of commandLines(b.code)) {
    const server = await startServer(onFreePort(command), w);
    const status = await fetch(server.url, { headers: { accept: 'application/json, text/event-stream' } }).then(
      (res) => res.status,
      (err: Error) => err.message,
    );
    const code = await server.stop();
    if (typeof status !== 'number' || status >= 500)
      throw new Error(`${b.id}: ${command}: GET ${server.url} answered ${status}`);
    if (code !== 0) throw new Error(`${b.id}: ${command}: stopped with exit ${code}:\n${server.output()}`);
  }
}

async function typescript(b: DocBlock, h: Handling, w: DocWorkspace, compiled: Compiled): Promise<void> {
  const errors = compiled.errors.get(b.id);
  if (errors) throw new Error(`${b.id} does not compile (strict):\n${errors}`);
  if (h.kind === 'ts-compile') return;
  let file = compiled.output.get(b.id);
  if (!file) throw new Error(`${b.id}: the compiler emitted nothing`);
  const server = h.kind === 'ts-gateway' ? await startServer('toolbelt serve --port 0', w) : undefined;
  try {
    if (server) {
      const live = file.replace(/\.mjs$/, '.live.mjs');
      writeFileSync(live, readFileSync(file, 'utf8').replaceAll(GATEWAY_URL, server.url));
      file = live;
    }
    const r = runCompiled(file, w);
    if (r.status !== 0) throw new Error(`${b.id} exited with ${r.status}:\n${r.stdout}${r.stderr}`);
    checkOutput(b, r.stdout);
  } finally {
    await server?.stop();
  }
}

export async function runBlock(b: DocBlock, h: Handling, w: DocWorkspace, compiled: Compiled): Promise<void> {
  switch (h.kind) {
    case 'shell':
      return shell(b, w);
    case 'console':
      return consoleBlock(b, w);
    case 'server':
      return servers(b, w);
    case 'ts':
    case 'ts-compile':
    case 'ts-gateway':
      return typescript(b, h, w, compiled);
    case 'config':
      return checkConfig(b.id, b.code);
    case 'json':
      return void parseJson(b.code);
    case 'mcp-client': {
      const counts = await listClientTools(b.code, w);
      for (const [name, n] of Object.entries(counts))
        if (n === 0) throw new Error(`${b.id}: server "${name}" lists no tools`);
      return;
    }
    case 'elisp':
      return checkElisp(b);
    default:
      throw new Error(`${b.id}: ${h.reason}`);
  }
}
