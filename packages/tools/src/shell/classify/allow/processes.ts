// ps: it lists processes, and their command lines may hold other people's secrets (a password given
// as an argument). Inside the sandbox a command has its own process namespace and sees only its
// own processes, so ps is a read there; outside it asks. It has no option that writes or runs.
import type { Card } from './card.js';
import { no, OK, type ReadSpec } from './spec.js';

const ps: ReadSpec = {
  operands: 'data',
  check: (_cmd, a, scope) => {
    if (!scope.confined) return no('process command lines may hold secrets; ps is a read only inside the sandbox, which shows it its own processes');
    const computed = a.operands.find((w) => !w.static);
    return computed ? no(`${computed.source} is computed`) : OK;
  },
};

export const PROCESS_CARDS: Card[] = [
  {
    names: ['ps'],
    worst: 'read',
    spec: ps,
    examples: { asks: ['ps aux', 'ps -ef'] },
    confined: { read: ['ps aux', 'ps -ef', 'ps -o pid,cmd', 'ps'], asks: ['ps $OPTS'] },
  },
];
