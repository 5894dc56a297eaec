// CPU time of whole processes from /proc (every thread of the process, user + system), and the
// PostgreSQL backends that serve a given set of processes, found by the client ports of their sockets.
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { execFileSync } from 'node:child_process';

const TICKS = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** CPU seconds (user + system, all threads) a live process has used, or undefined when it is gone. */
export function cpuSeconds(pid) {
  let stat;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // The command name may hold spaces and parentheses: the fields that follow start after the last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICKS; // utime, stime: fields 14 and 15 of stat(5)
}

/** The command name of a live process ('' when it is gone). */
export function commandName(pid) {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  } catch {
    return '';
  }
}

function socketInodes(pid) {
  const out = new Set();
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
      if (m) out.add(m[1]);
    } catch {
      // closed while we looked
    }
  }
  return out;
}

/** Local ports of the TCP connections `pid` holds to `remotePort` (IPv4 and IPv6). */
export function clientPorts(pid, remotePort) {
  const inodes = socketInodes(pid);
  const ports = [];
  for (const table of ['tcp', 'tcp6']) {
    let text;
    try {
      text = readFileSync(`/proc/${pid}/net/${table}`, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const f = line.trim().split(/\s+/);
      if (f.length < 10 || !inodes.has(f[9])) continue;
      const port = (addr) => parseInt(addr.slice(addr.lastIndexOf(':') + 1), 16);
      if (port(f[2]) === remotePort) ports.push(port(f[1]));
    }
  }
  return ports;
}

/**
 * The pids of the PostgreSQL backends serving `pids`' connections. `query(text, params)` runs SQL on
 * the same server; the backends must be processes of this machine (checked), or their CPU cannot be read.
 */
export async function backendsOf(pids, remotePort, query) {
  const ports = pids.flatMap((p) => clientPorts(p, remotePort));
  if (!ports.length) return [];
  const rows = await query(
    `SELECT pid FROM pg_stat_activity WHERE client_port = ANY($1::int[]) AND client_addr IN ('127.0.0.1', '::1')`,
    [ports],
  );
  const backends = rows.map((r) => r.pid);
  for (const b of backends)
    if (!commandName(b).startsWith('postgres'))
      throw new Error(
        `PostgreSQL backend ${b} is not a process of this machine; run PostgreSQL locally to measure its CPU`,
      );
  return backends;
}

/** PostgreSQL's own background processes (WAL writer, checkpointer, ...): shared by every user of the server. */
export async function backgroundPids(query) {
  const rows = await query(`SELECT pid FROM pg_stat_activity WHERE backend_type <> 'client backend'`, []);
  return rows.map((r) => r.pid).filter((p) => commandName(p).startsWith('postgres'));
}

/**
 * Seconds the main thread of `pid` (its event loop, for Node) has run on a core and waited in a run
 * queue for one (/proc/<pid>/task/<pid>/schedstat); the rest of the wall time it slept.
 */
export function mainThreadTimes(pid) {
  try {
    const [run, wait] = readFileSync(`/proc/${pid}/task/${pid}/schedstat`, 'utf8').trim().split(' ').map(Number);
    return { run: run / 1e9, wait: wait / 1e9 };
  } catch {
    return undefined;
  }
}
