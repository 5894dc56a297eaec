// A child in its own process group (its own session, so no controlling terminal), so that one
// signal reaches everything it started, and so nothing it started outlives toolbelt.
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { constants } from 'node:os';

export interface GroupExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** Set when the process could not be started at all (missing cwd, missing binary). */
  error?: Error;
}

export interface SpawnGroupOptions {
  file: string;
  args: string[];
  cwd: string;
  env?: NodeJS.ProcessEnv;
  /**
   * The leader is a sandbox (bubblewrap) whose death ends everything inside at once: signals but
   * SIGKILL go to the other members, so a command can still handle SIGTERM in its grace period,
   * and its exit code 128+N means the command died of signal N.
   */
  sandboxed?: boolean;
}

const SIGNAL_NAMES = new Map(Object.entries(constants.signals).map(([name, n]) => [n, name as NodeJS.Signals]));

/** Groups that may still have members; SIGKILLed if toolbelt's own process exits. */
const live = new Set<ProcessGroup>();
let exitHookInstalled = false;

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const g of live) g.signal('SIGKILL');
  });
}

export class ProcessGroup {
  readonly child: ChildProcess;
  /** Resolves when the leader (bash) has exited; other members may still run. */
  readonly exited: Promise<GroupExit>;
  private exitInfo: GroupExit | undefined;

  private constructor(
    child: ChildProcess,
    private readonly isSandboxed: boolean,
  ) {
    this.child = child;
    this.exited = new Promise<GroupExit>((resolve) => {
      child.once('exit', (code, signal) => {
        // The kernel ends whatever is left in the sandbox's pid namespace: nothing to stop at exit.
        if (isSandboxed) live.delete(this);
        const inner = isSandboxed && code !== null && code > 128 ? SIGNAL_NAMES.get(code - 128) : undefined;
        resolve((this.exitInfo = inner ? { code: null, signal: inner } : { code, signal }));
      });
      child.once('error', (error) => {
        // 'error' after a successful spawn (a failed kill) is not an exit.
        if (child.pid === undefined) resolve((this.exitInfo = { code: null, signal: null, error }));
      });
    });
  }

  static spawn(opts: SpawnGroupOptions): ProcessGroup {
    installExitHook();
    const child = spawn(opts.file, opts.args, {
      cwd: opts.cwd,
      env: opts.env ?? process.env,
      // stdin is /dev/null: a command that prompts reads EOF and fails instead of hanging.
      stdio: ['ignore', 'pipe', 'pipe'],
      // setsid(): a new session and process group whose id is the child's pid.
      detached: true,
    });
    const group = new ProcessGroup(child, opts.sandboxed ?? false);
    if (child.pid !== undefined) live.add(group);
    return group;
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  /** Runs inside a sandbox, whose pid namespace ends everything in it when the command exits. */
  get sandboxed(): boolean {
    return this.isSandboxed;
  }

  get exit(): GroupExit | undefined {
    return this.exitInfo;
  }

  /** Sends a signal to every member of the group; false when none is left. */
  signal(sig: NodeJS.Signals | 0): boolean {
    const pid = this.child.pid;
    if (pid === undefined) return false;
    if (!this.isSandboxed || sig === 'SIGKILL' || sig === 0) return killGroup(pid, sig);
    const others = groupMembers(pid).filter((p) => p !== pid);
    for (const p of others) killOne(p, sig);
    return others.length > 0 || killGroup(pid, 0);
  }

  /** True while any member of the group is still running (zombies awaiting their reaper do not count). */
  alive(): boolean {
    const pid = this.child.pid;
    if (pid === undefined) return false;
    if (!killGroup(pid, 0)) {
      live.delete(this);
      return false;
    }
    const running = groupMembers(pid).length > 0;
    if (!running) live.delete(this);
    return running;
  }

  /**
   * Stops the whole group: SIGTERM, then SIGKILL for whatever is left after `graceMs`, then waits
   * (bounded) until no member runs. Safe to call more than once.
   */
  async terminate(graceMs: number): Promise<void> {
    if (!this.alive()) return;
    this.signal('SIGTERM');
    if (await this.waitGone(graceMs)) return;
    this.signal('SIGKILL');
    await this.waitGone(2_000);
  }

  /** Polls until the group is empty; true if it emptied within `ms`. */
  async waitGone(ms: number): Promise<boolean> {
    const deadline = Date.now() + ms;
    let delay = 5;
    while (this.alive()) {
      if (Date.now() >= deadline) return false;
      await new Promise((r) => setTimeout(r, Math.min(delay, Math.max(1, deadline - Date.now()))));
      delay = Math.min(delay * 2, 50);
    }
    return true;
  }
}

/** kill(-pgid, sig); false when the group has no member (ESRCH) or may not be signalled. */
function killGroup(pgid: number, sig: NodeJS.Signals | 0): boolean {
  // An empty group is the common case after every command; skip building a stack trace for it.
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    process.kill(-pgid, sig);
    return true;
  } catch {
    return false;
  } finally {
    Error.stackTraceLimit = limit;
  }
}

function killOne(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(pid, sig);
  } catch {
    // Gone meanwhile.
  }
}

/**
 * Pids of running (non-zombie) processes in a process group. Linux reads /proc; elsewhere a
 * successful kill(-pgid, 0) is taken to mean the group still has members.
 */
export function groupMembers(pgid: number): number[] {
  if (process.platform !== 'linux') return killGroup(pgid, 0) ? [pgid] : [];
  const out: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (name.charCodeAt(0) < 48 || name.charCodeAt(0) > 57) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${name}/stat`, 'latin1');
    } catch {
      continue;
    }
    // Fields after the parenthesised command name: state ppid pgrp ...
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(rest[2]) === pgid && rest[0] !== 'Z' && rest[0] !== 'X') out.push(Number(name));
  }
  return out;
}
