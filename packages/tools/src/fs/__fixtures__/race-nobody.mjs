// Run by race-unprivileged.test.ts as an unprivileged user (setpriv): race.test.ts's attack with the
// built @toolbelt/tools. A directory `d` in the workspace is swapped with a link to a directory
// outside (holding `shadow`, with a marker) while read_file reads d/shadow.
// argv[2]: the tools package's dist directory; argv[3]: JSON { root, outside, what, calls? }:
//   what 'control': the deterministic swap, once between a naive check and open (which reads the
//     outside file) and once at read_file's pause hook between its check and open (refused);
//   what 'race': `calls` read_file calls against a swapper process (also this user); a tally.
import { spawn } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Executor, Policy, textOf, ToolRegistry } from '@toolbelt/core';

const [dist, json] = process.argv.slice(2);
const load = (rel) => import(pathToFileURL(join(dist, rel)).href);
const { fsTools, WorkspaceGuard } = await load('index.js');
const { openHooks } = await load('text/opened.js');
const { READ_FLAGS } = await load('workspace/special.js');
const { root, outside, what, calls, marker } = JSON.parse(json);

const executor = new Executor({
  registry: new ToolRegistry().registerAll(fsTools()),
  policy: new Policy({ mode: 'yolo' }),
  workspace: new WorkspaceGuard({ roots: [root] }),
});
const read = async (path) => {
  const r = await executor.call({ tool: 'read_file', input: { path } });
  return { status: r.status, text: textOf(r) };
};

/** `name/d` a real directory holding `shadow`, `name/link` a link to the outside; swap() trades them. */
function tree(name) {
  const dir = join(root, name);
  mkdirSync(join(dir, 'd'), { recursive: true });
  writeFileSync(join(dir, 'd', 'shadow'), 'inside\n');
  symlinkSync(outside, join(dir, 'link'));
  return () => {
    renameSync(join(dir, 'd'), join(dir, 'real'));
    renameSync(join(dir, 'link'), join(dir, 'd'));
  };
}

async function control() {
  const swapNaive = tree('naive');
  const abs = await executor.workspace.resolve('naive/d/shadow', 'read');
  swapNaive();
  const fd = openSync(abs, READ_FLAGS);
  const buf = Buffer.alloc(4096);
  const naive = buf.subarray(0, readSync(fd, buf, 0, buf.length, 0)).toString();
  closeSync(fd);
  const swapHooked = tree('hooked');
  openHooks.beforeOpen = () => {
    delete openHooks.beforeOpen;
    swapHooked();
  };
  return { naive, hooked: await read('hooked/d/shadow') };
}

/** A child process (this user too) swapping `d` between the real directory and the link, as fast as it can. */
function startSwapper(dir) {
  const script = `
    const { renameSync } = require('node:fs');
    const [d, real, link] = ['d', 'real', 'link'].map((n) => require('node:path').join(${JSON.stringify(dir)}, n));
    const mv = (a, b) => { try { renameSync(a, b); } catch {} };
    process.stdout.write(process.getuid() + '\\n');
    for (;;) { mv(real, d); mv(d, real); mv(link, d); mv(d, link); }
  `;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve) => child.stdout.once('data', (uid) => resolve({ child, uid: Number(uid) })));
}

async function race() {
  const dir = join(root, 'race');
  mkdirSync(join(dir, 'real'), { recursive: true });
  writeFileSync(join(dir, 'real', 'shadow'), 'inside\n');
  symlinkSync(outside, join(dir, 'link'));
  const { child, uid } = await startSwapper(dir);
  const seen = {
    swapperUid: uid,
    inside: 0,
    refusedAtCheck: 0,
    refusedAtOpen: 0,
    missing: 0,
    escaped: 0,
    other: 0,
    examples: [],
  };
  try {
    for (let i = 0; i < calls; i++) {
      const { status, text } = await read('race/d/shadow');
      if (text.includes(marker)) seen.escaped++;
      else if (status === 'success') seen.inside++;
      else if (/changed while it was being opened/.test(text)) seen.refusedAtOpen++;
      else if (/outside the workspace/.test(text)) seen.refusedAtCheck++;
      else if (/does not exist|not found|no such/i.test(text)) seen.missing++;
      else if (seen.other++ < 3) seen.examples.push(text);
    }
  } finally {
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGKILL');
    await exited;
  }
  return seen;
}

const out = what === 'control' ? await control() : await race();
await executor.close();
process.stdout.write(JSON.stringify({ uid: process.getuid(), ...out }));
