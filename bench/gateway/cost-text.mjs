// What the probes of 2026-11-26 say about where PostgreSQL's share goes, what scale-out adds, and the
// gateway's idle time on SQLite: prose for the cost section of docs/benchmarks.md, with the figures
// of those probes (run by hand, as described; the tables above the prose are regenerated every run).
export const IDLE_TEXT = `**Where the idle time goes (SQLite).** The throughput bench once found the machine only 63% busy
under gateway load, so the limit looked like something other than the CPU. Measured on 2026-11-26
(load average 9–12 on the 2 cores, from other work), the idle has three parts:

1. **One core is the limit, not the machine.** The gateway's JavaScript, its SQLite writes included,
   runs on one thread. The lines above give that thread's CPU per call (150–190 µs for \`echo_note\`,
   220–270 µs for \`read_note\` in the day's runs) against the whole process's (its other threads: GC helpers, the WAL
   checkpoint thread, libuv's pool reading the file) and the load generator's (~50 µs): with the
   event-loop thread busy all the time on one core, a quiet 2-core machine would be only 68–79% busy
   (in every run of the day; this run's figures are in the lines above).
   A machine-wide figure mostly measures the second core the gateway cannot use. Judge the gateway
   by its event-loop thread (schedstat) or by CPU per call.
2. **The loop sleeps waiting for requests.** With \`echo_note\` nothing in a call waits on I/O: the
   group commit waits two \`setImmediate\` turns, which never sleep, and the commit itself is a
   synchronous call on the loop thread. So when its thread sleeps, no connection has a request for it:
   the next requests are with the load generator, which itself waited for a core 10–30% of the time
   here. \`strace -c -w\` of the event-loop thread over 6,000 calls at 32 connections (strace slows
   every syscall): 27% of the wall in \`epoll_pwait\` (855 waits of 1.7 ms on average), 4% in \`futex\`.
3. **With \`read_note\`, hand-offs to the thread pool.** \`fs/promises\` \`readFile\` is four pool
   operations (open, stat, read, close), each a hand-off and a wake-up: under strace 17% of the wall
   in \`epoll_pwait\` and 16% in \`futex\` (40,065 calls, 6.7 per gateway call) — the loop blocks on
   the pool's lock when a worker holding it has been descheduled, which a busy machine makes common.

Not idle, but the loop's own time: commit batching works (12 calls per commit with \`echo_note\`,
7–8 with \`read_note\`, at 32 connections), and each commit's WAL writes run on the loop thread:
~5 \`pwrite64\` and 2 \`pread64\` per call, 30–42 µs per call timed around \`COMMIT\`. The event writes
(the call row and its result, three events, a log entry: ~5 KB per call) ride in the same commit and
cost WAL pages, not waits. At one connection there is nothing to batch: 0.3–0.5 calls per commit
(a commit for each step of a call) and 450–650 µs of loop thread per call, 3x the cost at 32.

What would help, for whoever changes the gateway: (a) move the store's writes (serializing the rows
and SQLite's WAL writes, ~20–30% of the loop thread's time per call) to a worker thread, so the
second core works and the loop only hands over rows; or scale by processes on PostgreSQL (below);
(b) write less per call — the result is stored three times (call row, \`tool.result\` event, log
entry); (c) write a call's start and end in one commit when the tool answers within the commit
window, so a lone call costs one commit, not two or three; (d) for file tools, one pool operation
per read (a read on an open handle, or a synchronous read for small files) instead of four.`;

export const SCALE_TEXT = `**Where PostgreSQL's share goes, and what scale-out adds** (probes of 2026-11-26: the statements
counted in each instance by wrapping the pg driver's \`Client.prototype.query\`, as the bench now does).
A turn's calls share their statements: the call's start (\`INSERT INTO tool_calls\`), its events
(\`append_events\`: lock, insert, NOTIFY), its end (one \`UPDATE\` over \`unnest\`ed arrays) and its log
entry, four statements a turn: 0.3–0.7 per call at 32 connections (the table), so the backends spend
~350–500 µs per statement, each carrying the rows of ~4 (\`read_note\`) to ~12 (\`echo_note\`) calls: big rows (the result is stored in the call row,
in a \`tool.result\` event and in the log entry; ~5 KB of WAL per call) sent as text arrays and
unnested, and a NOTIFY per \`append_events\`. On the gateway's side PostgreSQL mode costs more than
SQLite mode's in-process commit: building the statements, \`writev\` to the sockets, the pg driver
and its garbage (see the section above).

What grows with the number of instances: every instance listens on one channel, so each
\`append_events\` NOTIFY reaches every instance. With one instance it heard 0.07–0.10
notifications per call (its own), with two 0.13 (each hears both): with N instances a call causes
~0.07 × N deliveries, each read from the queue by a listening backend and parsed by its instance —
the one part of the work per call that grows with N, small at two instances and worth removing
before many: events could go out on a channel of their own, which an instance LISTENs to only while it has an event stream open (wake-ups for waiting calls stay on the store's channel). What does not
grow, but must be kept: batching. Two instances sharing the load of one gather half as many calls
per statement and commit, and cost 1.3–1.5x per call (the last subject above); scaled out, each
instance keeps its own load and its batches. The rest of the measured difference between one and two
instances moves from round to round, below 1x in some (the ranges beside the goals above): on this
machine a busy neighbour changes the CPU per call by more than scale-out does. A cpu-prof of both
(echo_note) showed no code path that only two instances run: every part of the profile grew alike.`;
