// The processes one set of shell tools owns: background jobs with bounded logs read
// incrementally, and foreground runs. dispose() stops every one of them.
import { ToolError } from '@toolbelt/core';
import { ByteRing } from '../process/byte-ring.js';
import { ProcessGroup, type GroupExit } from '../process/group.js';
import { HeadTailBuffer, utf8End, utf8Start } from '../process/head-tail.js';
import { bashInvocation } from '../process/limits.js';
import type { Confinement, Sandbox } from '../sandbox/sandbox.js';
import { closeObjectReaders } from './classify/allow/git-batch.js';
import { OutputFiles } from './output-files.js';
import type { ShellSettings } from './settings.js';

export interface Job {
  id: string;
  /** Only calls of this session see the job. */
  sessionId: string;
  command: string;
  cwd: string;
  group: ProcessGroup;
  startedAt: number;
  log: ByteRing;
  /** Absolute log offset up to which output has been returned. */
  cursor: number;
  exit?: GroupExit;
  endedAt?: number;
  /** Set when we stopped it (shell_job kill, dispose). */
  stoppedBy?: string;
  /** Resolves when both pipes have closed (or been let go of). */
  drained: Promise<void>;
  /** Wakes waiters in shell_job output when output arrives or the job ends. */
  changed: Set<() => void>;
  /** How it was confined, to explain a failure the sandbox caused. */
  confinement: Confinement;
}

export interface LogRead {
  text: string;
  /** Bytes that fell out of the log before they were read. */
  dropped: number;
  /** Bytes of new output left out of `text` to keep it within the limit. */
  omitted: number;
  newBytes: number;
}

/** Finished jobs kept for reading and listing; older ones are forgotten first. */
const KEEP_FINISHED = 32;

export class ShellManager {
  private readonly jobs = new Map<string, Job>();
  private readonly stopAll = new AbortController();
  private next = 1;
  /** The whole output of shell_exec runs whose result was cut. */
  readonly outputFiles: OutputFiles;

  constructor(
    readonly settings: ShellSettings,
    readonly sandbox: Sandbox,
  ) {
    this.outputFiles = new OutputFiles(settings.maxOutputFileBytes);
  }

  /** Aborted by dispose(): foreground runs listen to it alongside their own signal. */
  get disposeSignal(): AbortSignal {
    return this.stopAll.signal;
  }

  get disposed(): boolean {
    return this.stopAll.signal.aborted;
  }

  start(command: string, cwd: string, env: NodeJS.ProcessEnv, confinement: Confinement, sessionId: string): Job {
    if (this.disposed)
      throw new ToolError('ABORTED', 'the shell tools have been shut down; no new processes are started');
    const running = [...this.jobs.values()].filter((j) => !j.exit).length;
    if (running >= this.settings.maxBackground) {
      throw new ToolError(
        'CONFLICT',
        `${running} background processes are already running (the limit is ${this.settings.maxBackground}). Stop one with shell_job {"action":"kill","id":...} first; {"action":"list"} shows them.`,
      );
    }
    const { file, args, sandboxed } = confinement.wrap(bashInvocation(command, confinement.limits));
    const group = ProcessGroup.spawn({ file, args, cwd, env, sandboxed });
    const log = new ByteRing(this.settings.backgroundLogBytes);
    const changed = new Set<() => void>();
    const wake = () => {
      for (const w of [...changed]) w();
    };
    const pipes = [group.child.stdout!, group.child.stderr!];
    const closed = pipes.map((p) => new Promise<void>((resolve) => p.once('close', resolve)));
    for (const p of pipes) {
      p.on('data', (chunk: Buffer) => {
        log.write(chunk);
        wake();
      });
    }
    const job: Job = {
      id: `bg${this.next++}`,
      sessionId,
      command,
      cwd,
      group,
      startedAt: Date.now(),
      log,
      cursor: 0,
      drained: Promise.all(closed).then(() => {}),
      changed,
      confinement,
    };
    void group.exited.then(async (exit) => {
      // Output still in the pipes arrives after the exit; give it a moment, not forever.
      await Promise.race([job.drained, new Promise((r) => setTimeout(r, 100).unref())]);
      job.exit = exit;
      job.endedAt = Date.now();
      if (exit.error) log.write(Buffer.from(`toolbelt: could not start the command: ${exit.error.message}\n`));
      // Whatever it left in the background goes with it (in a sandbox, the kernel sees to that).
      if (!group.sandboxed && group.alive()) void group.terminate(this.settings.killGraceMs);
      for (const p of pipes) if (!p.destroyed) p.destroy();
      wake();
      this.forgetOldFinished();
    });
    this.jobs.set(job.id, job);
    return job;
  }

  get(id: string, sessionId: string): Job {
    const job = this.jobs.get(id.trim());
    if (!job || job.sessionId !== sessionId) {
      const known = this.list(sessionId).map((j) => j.id);
      throw new ToolError(
        'NOT_FOUND',
        `no background process with id "${id}". ${known.length ? `Known ids: ${known.join(', ')}.` : 'None has been started.'} shell_job {"action":"list"} shows them.`,
      );
    }
    return job;
  }

  forget(job: Job): void {
    this.jobs.delete(job.id);
  }

  list(sessionId: string): Job[] {
    return [...this.jobs.values()].filter((j) => j.sessionId === sessionId);
  }

  /** Output since the last read, as head + tail within maxOutputBytes; moves the cursor. */
  read(job: Job): LogRead {
    const { data, dropped } = job.log.readFrom(job.cursor);
    // Hold back a character split by the end of what has arrived so far (unless it has ended).
    const end = job.exit ? data.length : utf8End(data);
    const start = dropped ? utf8Start(data) : 0;
    const bytes = data.subarray(start, end);
    job.cursor = job.log.total - (data.length - end);
    const buf = new HeadTailBuffer(this.settings.maxOutputBytes);
    buf.push(bytes);
    const t = buf.read();
    return { text: t.text, dropped: dropped + start, omitted: t.omittedBytes, newBytes: bytes.length };
  }

  /** Waits until `ready()` holds, the job ends, `ms` passes or `signal` aborts. */
  async wait(job: Job, ms: number, signal: AbortSignal, ready: () => boolean): Promise<void> {
    if (ms <= 0 || job.exit || ready()) return;
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        job.changed.delete(check);
        signal.removeEventListener('abort', done);
        resolve();
      };
      const check = () => {
        if (job.exit || ready()) done();
      };
      const timer = setTimeout(done, ms);
      job.changed.add(check);
      signal.addEventListener('abort', done, { once: true });
    });
  }

  /** Stops a job's whole process group: `first` signal, then SIGKILL after the grace period. */
  async stop(job: Job, first: NodeJS.Signals, by: string): Promise<void> {
    if (!job.exit) job.stoppedBy ??= by;
    if (first !== 'SIGTERM' && first !== 'SIGKILL') job.group.signal(first);
    if (first === 'SIGKILL') job.group.signal('SIGKILL');
    await job.group.terminate(this.settings.killGraceMs);
    await job.group.exited;
    await Promise.race([job.drained, new Promise((r) => setTimeout(r, 200).unref())]);
  }

  async dispose(): Promise<void> {
    if (!this.disposed) this.stopAll.abort();
    await Promise.allSettled([...this.jobs.values()].map((j) => this.stop(j, 'SIGTERM', 'shutdown')));
    this.outputFiles.removeAll();
    closeObjectReaders();
  }

  private forgetOldFinished(): void {
    const finished = [...this.jobs.values()].filter((j) => j.exit);
    for (const j of finished.slice(0, Math.max(0, finished.length - KEEP_FINISHED))) this.jobs.delete(j.id);
  }
}
