// Resource limits for a shell command, set by bash's own `ulimit` before the command runs (soft
// and hard, so the command cannot raise them again). No native module, no extra binary. bash comes
// from a fixed place (process/programs.ts), never from a PATH entry the workspace could fill.
import { programPath } from './programs.js';

export interface ResourceLimits {
  /** CPU time; the process gets SIGXCPU, then SIGKILL, when it is used up. */
  cpuSeconds?: number;
  /** Virtual address space (RLIMIT_AS). Runtimes that reserve large heaps (JVM, Node) need room. */
  memoryMb?: number;
  /**
   * Writable memory: heap and private writable mappings (RLIMIT_DATA). Unlike address space it
   * does not count what runtimes reserve and never touch (Node reserves ~0.7 GB at start,
   * WebAssembly ~10 GB per instance), so it limits what a process can really use.
   */
  dataMb?: number;
  /** Open file descriptors (RLIMIT_NOFILE). */
  openFiles?: number;
  /**
   * Processes and threads of the user (RLIMIT_NPROC). Counted per user across the whole machine,
   * not per command, and not enforced for root.
   */
  processes?: number;
}

export interface Invocation {
  file: string;
  args: string[];
  /** It runs inside a sandbox (see ProcessGroup's `sandboxed`). */
  sandboxed?: boolean;
}

function positiveInt(name: string, v: number | undefined): number | undefined {
  if (v === undefined) return undefined;
  if (!Number.isInteger(v) || v <= 0) throw new RangeError(`limits.${name} must be a positive integer, not ${v}`);
  return v;
}

/** `ulimit` flags for the limits given; empty when there are none. */
export function ulimitFlags(limits: ResourceLimits | undefined): string[] {
  if (!limits) return [];
  const flags: string[] = [];
  const cpu = positiveInt('cpuSeconds', limits.cpuSeconds);
  const mem = positiveInt('memoryMb', limits.memoryMb);
  const data = positiveInt('dataMb', limits.dataMb);
  const files = positiveInt('openFiles', limits.openFiles);
  const procs = positiveInt('processes', limits.processes);
  if (cpu !== undefined) flags.push('-t', String(cpu));
  if (mem !== undefined) flags.push('-v', String(mem * 1024));
  if (data !== undefined) flags.push('-d', String(data * 1024));
  if (files !== undefined) flags.push('-n', String(files));
  if (procs !== undefined) flags.push('-u', String(procs));
  return flags;
}

/**
 * How to run `script` with bash. With limits, the same bash sets them first, on the script's own
 * first line, so $0 and line numbers are unchanged and no second bash has to start (that would
 * cost a few milliseconds per command, a third of what the sandbox costs).
 */
export function bashInvocation(script: string, limits?: ResourceLimits): Invocation {
  const flags = ulimitFlags(limits);
  // `bash` after the script is its $0, as when bash was found by name: messages still say "bash: line 1: …".
  if (flags.length === 0) return { file: programPath('bash'), args: ['-c', script, 'bash'] };
  return {
    file: programPath('bash'),
    args: [
      '-c',
      `ulimit ${flags.join(' ')} || { echo "toolbelt: could not apply resource limits (ulimit ${flags.join(' ')})" >&2; exit 126; }; ${script}`,
      'bash',
    ],
  };
}

/**
 * How to run a program (not a script) with limits: bash sets them and execs it with its arguments
 * unchanged (bash, not sh: dash's ulimit takes one flag at a time and has no -u). Used for MCP
 * servers.
 */
export function execInvocation(file: string, args: readonly string[], limits?: ResourceLimits): Invocation {
  const flags = ulimitFlags(limits);
  if (flags.length === 0) return { file, args: [...args] };
  // A missing program is said once, plainly, not as bash's "toolbelt-limits: line 1: exec: …".
  const found = `command -v -- "$1" >/dev/null || { echo "toolbelt: the command \\"$1\\" was not found" >&2; exit 127; }`;
  const setup = `ulimit ${flags.join(' ')} || { echo "toolbelt: could not apply resource limits (ulimit ${flags.join(' ')})" >&2; exit 126; }; ${found}; exec "$@"`;
  // --norc: with a socket as stdin (how Node passes pipes) bash would take itself for rshd's and read ~/.bashrc.
  return { file: programPath('bash'), args: ['--norc', '--noprofile', '-c', setup, 'toolbelt-limits', file, ...args] };
}
