// When a confined command fails, says whether the sandbox (or a limit) is the likely cause and
// what would allow it, so the model asks the user instead of retrying the same thing.
import { sep } from 'node:path';
import type { Confinement } from './sandbox.js';

const READ_ONLY = /read-only file system|EROFS/i;
const DENIED = /permission denied|EACCES|EPERM|operation not permitted/i;
const NETWORK =
  /could not resolve|temporary failure in name resolution|name or service not known|ENOTFOUND|EAI_AGAIN|network is unreachable|ENETUNREACH|connection refused|ECONNREFUSED|no route to host|EHOSTUNREACH|failed to connect|getaddrinfo/i;
const MEMORY = /cannot allocate memory|out of memory|MemoryError|std::bad_alloc|allocation failed|ENOMEM/i;
const FILES = /too many open files|EMFILE/i;
const PROCESSES = /fork: (retry: )?resource temporarily unavailable|EAGAIN.*(fork|spawn)|cannot fork/i;
/** An absolute path in an error line, as programs quote them: 'x', ‘x’, "x", `x', or bare. */
const PATH = /(?:^|[\s'"‘`(=])(\/[^\s'"’`),:]*)/g;

function pathsIn(line: string): string[] {
  return [...line.matchAll(PATH)].map((m) => m[1].replace(/[.]$/, ''));
}

function inside(path: string, dirs: readonly string[]): boolean {
  return dirs.some((d) => path === d || path.startsWith(d.endsWith(sep) ? d : d + sep));
}

/** Notes for the model on what in `output` the sandbox or a limit probably caused; empty when nothing. */
export function sandboxNotes(output: string, c: Confinement): string[] {
  const lines = output.split('\n');
  const notes: string[] = [];
  const add = (note: string) => {
    if (!notes.includes(note)) notes.push(note);
  };
  const matching = (re: RegExp) => lines.filter((l) => re.test(l));
  const h = c.home;
  const home = (path: string) => (h !== '/' && (path === h || path.startsWith(h + sep)) ? `~${path.slice(h.length)}` : path);
  if (c.profile !== 'none') {
    if (matching(/^bwrap: /).length)
      add(
        '[sandbox: bubblewrap could not set up the sandbox for this command (the "bwrap:" line above says why); the command did not run. Ask the user to run `toolbelt doctor`.]',
      );
    const hidden = new Set<string>();
    for (const line of lines) for (const p of pathsIn(line)) for (const h of c.hidden) if (inside(p, [h])) hidden.add(h);
    for (const path of hidden) {
      add(
        `[sandbox: ${home(path)} is hidden from commands (secrets or toolbelt's own files): it looks empty or missing inside. If the task really needs it, ask the user to unhide it with "!${home(path)}" in sandbox.hidden in toolbelt.config.json.]`,
      );
    }
    const roLines = matching(READ_ONLY);
    if (roLines.length && c.profile === 'read-only') {
      add(
        '[sandbox: this command needs write access. It was judged a read, so it ran with the whole file system read-only (the workspace too) and no network. Ask the user, then run it again with write_access: true so it is approved and run as a command that writes.]',
      );
    } else if (roLines.length) {
      const outside = roLines.flatMap(pathsIn).filter((p) => !inside(p, c.roots));
      const where = outside.length ? ` (${[...new Set(outside)].slice(0, 3).map(home).join(', ')})` : '';
      add(
        `[sandbox: commands may write only inside the workspace and /tmp; the rest of the file system is read-only${where}. If the command must write there, ask the user to add the directory to sandbox.writable in toolbelt.config.json.]`,
      );
    }
    const denied = matching(DENIED)
      .flatMap(pathsIn)
      .filter((p) => !inside(p, c.roots) && !inside(p, c.hidden));
    if (denied.length && !roLines.length) {
      add(
        `[sandbox: access outside the workspace was refused (${[...new Set(denied)].slice(0, 3).map(home).join(', ')}); the sandbox keeps everything outside the workspace read-only. If the command needs it, ask the user to add the directory to sandbox.writable in toolbelt.config.json.]`,
      );
    }
    if (!c.network && matching(NETWORK).length) {
      add(
        c.profile === 'read-only'
          ? '[sandbox: this command has no network: it was judged a read, and reads never get it. Ask the user, then run it again with write_access: true; sandbox.network in toolbelt.config.json must allow it too.]'
          : '[sandbox: this command has no network (it gets its own, with an empty localhost, so servers outside it are unreachable too). If it needs the network, ask the user to allow it with sandbox.network in toolbelt.config.json: true, or a list of command prefixes such as ["npm install"].]',
      );
    }
  }
  const l = c.limits;
  if (l && (l.dataMb || l.memoryMb) && matching(MEMORY).length) {
    const what = [l.dataMb ? `${l.dataMb} MB of data (sandbox.limits.dataMb)` : '', l.memoryMb ? `${l.memoryMb} MB of address space (memoryMb)` : '']
      .filter(Boolean)
      .join(' and ');
    add(
      `[limits: it may have run out of memory: each process may use ${what}. Ask the user to raise the limit in toolbelt.config.json if the task needs more.]`,
    );
  }
  if (l?.openFiles && matching(FILES).length)
    add(`[limits: each process may open ${l.openFiles} files (sandbox.limits.openFiles); ask the user to raise it if the task needs more.]`);
  if (l?.processes && matching(PROCESSES).length)
    add(`[limits: the user may run ${l.processes} processes and threads (sandbox.limits.processes); ask the user to raise it if the task needs more.]`);
  return notes;
}
