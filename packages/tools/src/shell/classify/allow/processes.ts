// Commands that list processes (ps, pgrep, pidof, pstree, w): their command lines may hold other
// people's secrets (a password given as an argument). Inside the sandbox a command has its own
// process namespace and sees only its own processes, so they are reads there; outside they ask.
// None has an option that writes or runs. `confinedOnly` serves other families read only there.
import type { Card } from './card.js';
import { table } from './getopt.js';
import { no, OK, type Args, type ReadSpec, type Verdict } from './spec.js';

const std = 'help version';

/** Static operands only: a computed word could become an option. */
export const staticOperands = (a: Args): Verdict => {
  const computed = a.operands.find((w) => !w.static);
  return computed ? no(`${computed.source} is computed`) : OK;
};

/** A read only inside the sandbox, for `why`. */
export const confinedOnly = (spec: Omit<ReadSpec, 'check'>, why: string): ReadSpec => ({
  ...spec,
  check: (_cmd, a, scope) => (scope.confined ? staticOperands(a) : no(why)),
});

const LINES =
  'process command lines may hold secrets; it is a read only inside the sandbox, which shows it its own processes';

const ps = confinedOnly({ operands: 'data' }, LINES);
const pgrep = confinedOnly(
  {
    options: table(
      'lafxvnocid:g:G:P:s:t:u:U:r:A',
      `list-name list-full full exact inverse newest oldest count ignore-case delimiter= pgroup= group= parent= session= terminal= euid= uid= runstates= ignore-ancestors older= ns= nslist= ${std}`,
    ),
    operands: 'data',
  },
  LINES,
);
const pidof = confinedOnly({ options: table('scnxqwo:', std), operands: 'data' }, LINES);
const pstree = confinedOnly(
  {
    options: table(
      'acglnpsStTuZAUGVhH:N:',
      `arguments compact-not show-pgids long numeric-sort show-pids show-parents ns-changes thread-names hide-threads uid-changes security-context ascii unicode vt100 highlight-all highlight-pid= ns-sort= ${std}`,
    ),
    operands: 'data',
    maxOperands: 1,
  },
  LINES,
);
const w = confinedOnly(
  {
    options: table('hiusfop', `no-header ip-addr no-current short from old-style pids ${std}`),
    operands: 'data',
    maxOperands: 1,
  },
  LINES,
);

export const PROCESS_CARDS: Card[] = [
  {
    names: ['ps'],
    worst: 'read',
    spec: ps,
    examples: { asks: ['ps aux', 'ps -ef'] },
    confined: { read: ['ps aux', 'ps -ef', 'ps -o pid,cmd', 'ps'], asks: ['ps $OPTS'] },
  },
  {
    names: ['pgrep'],
    worst: 'read',
    spec: pgrep,
    examples: { asks: ['pgrep bash', 'pgrep -a node'] },
    confined: { read: ['pgrep bash', 'pgrep -l bash', 'pgrep -af node', 'pgrep -u root sshd'], asks: ['pgrep $NAME'] },
  },
  {
    names: ['pidof'],
    worst: 'read',
    spec: pidof,
    examples: { asks: ['pidof node'] },
    confined: { read: ['pidof node', 'pidof -s bash'] },
  },
  {
    names: ['pstree'],
    worst: 'read',
    spec: pstree,
    examples: { asks: ['pstree'] },
    confined: { read: ['pstree', 'pstree -p', 'pstree -p -s 1'] },
  },
  { names: ['w'], worst: 'read', spec: w, examples: { asks: ['w'] }, confined: { read: ['w', 'w -h root'] } },
];
