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

const matching = (lines: string[], re: RegExp) => lines.filter((l) => re.test(l));

/** Shows a path below the home directory as `~/…`, as the user knows it. */
function homeShortener(h: string): (path: string) => string {
  return (path) => (h !== '/' && (path === h || path.startsWith(h + sep)) ? `~${path.slice(h.length)}` : path);
}

/** Notes for the model on what in `output` the sandbox or a limit probably caused; empty when nothing. */
export function sandboxNotes(output: string, c: Confinement): string[] {
  const lines = output.split('\n');
  const confined = c.profile === 'none' ? [] : confinementNotes(lines, c, homeShortener(c.home));
  return [...new Set([...confined, ...limitNotes(lines, c.limits)])];
}

/** What bubblewrap's confinement (hidden paths, read-only file system, no network) probably caused. */
function confinementNotes(lines: string[], c: Confinement, home: (path: string) => string): string[] {
  const notes: string[] = [];
  if (matching(lines, /^bwrap: /).length)
    notes.push(
      '[sandbox: bubblewrap could not set up the sandbox for this command (the "bwrap:" line above says why); the command did not run. Ask the user to run `toolbelt doctor`.]',
    );
  const hidden = new Set<string>();
  for (const line of lines) for (const p of pathsIn(line)) for (const h of c.hidden) if (inside(p, [h])) hidden.add(h);
  for (const path of hidden) {
    notes.push(
      `[sandbox: ${home(path)} is hidden from commands (secrets or toolbelt's own files): it looks empty or missing inside. If the task really needs it, ask the user to unhide it with "!${home(path)}" in sandbox.hidden in toolbelt.config.json.]`,
    );
  }
  notes.push(...writeNotes(lines, c, home));
  if (!c.network && matching(lines, NETWORK).length) {
    notes.push(
      c.profile === 'read-only'
        ? '[sandbox: this command has no network: it was judged a read, and reads never get it. Ask the user, then run it again with write_access: true; sandbox.network in toolbelt.config.json must allow it too.]'
        : '[sandbox: this command has no network (it gets its own, with an empty localhost, so servers outside it are unreachable too). If it needs the network, ask the user to allow it with sandbox.network in toolbelt.config.json: true, or a list of command prefixes such as ["npm install"].]',
    );
  }
  return notes;
}

/** A write refused: the whole file system read-only for a read, or a path outside the writable roots. */
function writeNotes(lines: string[], c: Confinement, home: (path: string) => string): string[] {
  const roLines = matching(lines, READ_ONLY);
  if (roLines.length && c.profile === 'read-only') {
    return [
      '[sandbox: this command needs write access. It was judged a read, so it ran with the whole file system read-only (the workspace too) and no network. Ask the user, then run it again with write_access: true so it is approved and run as a command that writes.]',
    ];
  }
  if (roLines.length) {
    const outside = roLines.flatMap(pathsIn).filter((p) => !inside(p, c.roots));
    const where = outside.length ? ` (${[...new Set(outside)].slice(0, 3).map(home).join(', ')})` : '';
    return [
      `[sandbox: commands may write only inside the workspace and /tmp; the rest of the file system is read-only${where}. If the command must write there, ask the user to add the directory to sandbox.writable in toolbelt.config.json.]`,
    ];
  }
  const denied = matching(lines, DENIED)
    .flatMap(pathsIn)
    .filter((p) => !inside(p, c.roots) && !inside(p, c.hidden));
  if (!denied.length) return [];
  return [
    `[sandbox: access outside the workspace was refused (${[...new Set(denied)].slice(0, 3).map(home).join(', ')}); the sandbox keeps everything outside the workspace read-only. If the command needs it, ask the user to add the directory to sandbox.writable in toolbelt.config.json.]`,
  ];
}

/** What a resource limit (memory, open files, processes) probably caused; applies with or without bubblewrap. */
function limitNotes(lines: string[], l: Confinement['limits']): string[] {
  const notes: string[] = [];
  if (l && (l.dataMb || l.memoryMb) && matching(lines, MEMORY).length) {
    const what = [
      l.dataMb ? `${l.dataMb} MB of data (sandbox.limits.dataMb)` : '',
      l.memoryMb ? `${l.memoryMb} MB of address space (memoryMb)` : '',
    ]
      .filter(Boolean)
      .join(' and ');
    notes.push(
      `[limits: it may have run out of memory: each process may use ${what}. Ask the user to raise the limit in toolbelt.config.json if the task needs more.]`,
    );
  }
  if (l?.openFiles && matching(lines, FILES).length)
    notes.push(
      `[limits: each process may open ${l.openFiles} files (sandbox.limits.openFiles); ask the user to raise it if the task needs more.]`,
    );
  if (l?.processes && matching(lines, PROCESSES).length)
    notes.push(
      `[limits: the user may run ${l.processes} processes and threads (sandbox.limits.processes); ask the user to raise it if the task needs more.]`,
    );
  return notes;
}
