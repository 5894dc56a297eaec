// CPU of whole processes from /proc, for benches that compare process start-ups: a live process
// tree (every thread of the process and its descendants, nanoseconds from schedstat), and the
// children this process has waited for (cutime + cstime, which the kernel keeps in nanoseconds and
// shows in clock ticks: a delta around one spawnSync is off by up to one tick, the mean of many is not).
import { readdirSync, readFileSync } from 'node:fs';

const TICK_MS = 10; // CLK_TCK is 100 on Linux

function read(path) {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

function tasks(pid) {
  try {
    return readdirSync(`/proc/${pid}/task`);
  } catch {
    return [];
  }
}

/** The live descendants of `pid` (children of every thread, recursively). */
function descendants(pid) {
  const kids = tasks(pid).flatMap((t) => read(`/proc/${pid}/task/${t}/children`).trim().split(/\s+/).filter(Boolean));
  return kids.flatMap((k) => [Number(k), ...descendants(k)]);
}

/** Milliseconds the children `pid` has already waited for used (cutime + cstime of /proc/PID/stat). */
function reapedMs(pid) {
  const stat = read(`/proc/${pid}/stat`);
  if (!stat) return 0;
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(f[13]) + Number(f[14])) * TICK_MS;
}

/**
 * CPU milliseconds a live process tree has used so far: every thread of `pid` and of its live
 * descendants (schedstat run time, ns), plus the children they have already waited for.
 */
export function treeCpuMs(pid) {
  let ms = 0;
  for (const p of [pid, ...descendants(pid)]) {
    for (const t of tasks(p)) ms += Number(read(`/proc/${p}/task/${t}/schedstat`).split(' ')[0] || 0) / 1e6;
    ms += reapedMs(p);
  }
  return ms;
}

/** CPU milliseconds of the children this process has waited for (a spawnSync child counts once it returns). */
export function waitedChildrenMs() {
  return reapedMs('self');
}
