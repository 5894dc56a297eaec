// Commands that describe the machine, from their manuals: none has an option that writes a file or
// runs a program, and each reads only the kernel's or the system's own tables (those that list
// processes are in processes.ts). getent asks the name services, which may be network ones (LDAP,
// NIS): a read only inside the sandbox, which has no network.
import type { Card } from './card.js';
import { table } from './getopt.js';
import { confinedOnly, staticOperands } from './processes.js';
import { no, OK, type ReadSpec } from './spec.js';

const std = 'help version';

const getent = confinedOnly(
  { options: table('is:', `no-idn service= ${std}`), operands: 'data' },
  'it asks the name services, which may be network ones (LDAP, NIS); a read only inside the sandbox',
);

/** who: login names and terminals; a file operand (another utmp) is not taken, `who am i` is; nor --lookup (DNS). */
const who: ReadSpec = {
  options: table(
    'abdHlmpqrsTtuw',
    `all boot dead heading login message process count runlevel short time users writable mesg ${std}`,
    {
      complete: true,
    },
  ),
  operands: 'data',
  check: (_cmd, a) => {
    const words = a.operands.map((o) => o.value.toLowerCase());
    if (!words.length || (words.length === 2 && words[0] === 'am' && words[1] === 'i')) return staticOperands(a);
    return no('who reads a file named as its operand');
  },
};

const cal: ReadSpec = {
  options: table(
    '13msjyYvwSn:c:',
    `one three sunday monday julian year twelve vertical week= span months= column= color? iso reform= ${std}`,
  ),
  operands: 'data',
  maxOperands: 3,
  check: (_cmd, a) => staticOperands(a),
};

/** bc reads the files it is given (or stdin) and prints results; it has no statement that writes or runs. */
const bc: ReadSpec = {
  options: table('hilqswv', `interactive mathlib quiet standard warn ${std}`, { complete: true }),
  operands: 'paths',
};

/** iconv without -o prints to stdout; -o writes, so it is left off the table and asks. */
const iconv: ReadSpec = {
  options: table('f:t:lcs', `from-code= to-code= list silent verbose ${std}`, { complete: true }),
  operands: 'paths',
};

// Not -q/-qq: they ask the PCI ID database over DNS.
const lspci = { options: table('mtvkxbDPns:d:', std), operands: 'none' } satisfies ReadSpec;
const lsusb = { options: table('vts:d:', std), operands: 'none' } satisfies ReadSpec;
const lsmod = { operands: 'none' } satisfies ReadSpec;
const dmesg: ReadSpec = {
  // Not -c/-C (clear the ring buffer), -D/-E (console logging), -n (console level), -w (follows
  // forever), -H (a pager).
  options: table(
    'kurtTdxPl:f:',
    `kernel userspace raw notime ctime reltime decode nopager show-delta level= facility= time-format= color? ${std}`,
  ),
  operands: 'none',
};
const last: ReadSpec = {
  // Not -f (another wtmp file, named by path), nor -d/--dns (it resolves addresses over DNS).
  options: table(
    'aFiwxRn:s:t:p:',
    `hostlast fulltimes ip fullnames system nohostname limit= since= until= present= time-format= ${std}`,
  ),
  operands: 'data',
  check: (_cmd, a) => staticOperands(a),
};
const lastlog: ReadSpec = { options: table('b:t:u:CS', `before= time= user= ${std}`), operands: 'none' };

const IP_FLAGS = new Set([
  '-4',
  '-6',
  '-s',
  '-stats',
  '-statistics',
  '-d',
  '-details',
  '-j',
  '-json',
  '-p',
  '-pretty',
  '-br',
  '-brief',
  '-c',
  '-color',
  '-o',
  '-oneline',
  '-h',
  '-human',
  '-N',
  '-numeric',
]);
// ip takes any prefix of an object's name (`a`, `add`, `addr` are all address), the first in its own table order.
const IP_OBJECTS = ['address', 'maddress', 'route', 'rule', 'neighbour', 'neighbor', 'link', 'mroute'];
const ipObject = (word: string): string | undefined => IP_OBJECTS.find((o) => o.startsWith(word));
const IP_VERBS = new Set(['show', 'sh', 's', 'list', 'ls', 'lst', 'get', 'g']);

/** ip: showing addresses, links, routes, neighbours and rules; any other object or verb (set, add, del, exec) asks. */
const ip: ReadSpec = {
  operands: 'data',
  check: (_cmd, a) => {
    const words = [...a.operands];
    if (words.some((w) => !w.static)) return no('a computed word could change what ip does');
    while (words.length && words[0].value.startsWith('-')) {
      if (!IP_FLAGS.has(words[0].value)) return no(`${words[0].value} is not an option we know to be harmless for ip`);
      words.shift();
    }
    const [object, verb] = words;
    if (!object || !ipObject(object.value))
      return no(`ip ${object?.value ?? ''} is not an object we know to be shown only`.trim());
    if (verb && !IP_VERBS.has(verb.value)) return no(`ip ${object.value} ${verb.value} may change the network`);
    return OK;
  },
};

export const SYSTEM_INFO_CARDS: Card[] = [
  {
    names: ['getent'],
    worst: 'read',
    spec: getent,
    examples: { asks: ['getent passwd'] },
    confined: { read: ['getent passwd', 'getent group', 'getent hosts localhost'] },
  },
  {
    names: ['who'],
    worst: 'read',
    spec: who,
    examples: {
      read: ['who', 'who -r', 'who am i', 'who -a'],
      asks: ['who /var/log/wtmp', 'who OUT/secret.txt', 'who --lookup'],
    },
  },
  {
    names: ['cal'],
    worst: 'read',
    spec: cal,
    examples: { read: ['cal', 'cal -m 11', 'cal -3', 'cal 2026'], asks: ['cal $M'] },
  },
  {
    names: ['bc'],
    worst: 'read',
    spec: bc,
    examples: { read: ['bc -l', 'bc a.txt', 'bc -q'], asks: ['bc .env', 'bc OUT/secret.txt'] },
  },
  {
    names: ['iconv'],
    worst: 'write',
    spec: iconv,
    examples: {
      read: ['iconv -l', 'iconv -f latin1 -t utf-8 a.txt'],
      asks: ['iconv -f latin1 -t utf-8 -o b.txt a.txt', 'iconv .env'],
    },
  },
  {
    names: ['lspci'],
    worst: 'read',
    spec: lspci,
    examples: { read: ['lspci', 'lspci -v', 'lspci -nn'], asks: ['lspci -F dump', 'lspci -q', 'lspci -qq'] },
  },
  {
    names: ['lsusb'],
    worst: 'read',
    spec: lsusb,
    examples: { read: ['lsusb', 'lsusb -t'], asks: ['lsusb -D /dev/bus/usb/001/001'] },
  },
  { names: ['lsmod'], worst: 'read', spec: lsmod, examples: { read: ['lsmod'], asks: ['lsmod extra'] } },
  {
    names: ['dmesg'],
    worst: 'write',
    spec: dmesg,
    examples: { read: ['dmesg', 'dmesg -T', 'dmesg --level=err'], asks: ['dmesg -c', 'dmesg -C', 'dmesg -n 1'] },
  },
  {
    names: ['last'],
    worst: 'read',
    spec: last,
    examples: { read: ['last', 'last reboot', 'last -n 5'], asks: ['last -f /var/log/btmp', 'last -d', 'last --dns'] },
  },
  {
    names: ['lastlog'],
    worst: 'read',
    spec: lastlog,
    examples: { read: ['lastlog', 'lastlog -u root'], asks: ['lastlog --clear -u root', 'lastlog --set -u root'] },
  },
  {
    names: ['ip'],
    worst: 'destructive',
    spec: ip,
    examples: {
      read: [
        'ip a',
        'ip add show',
        'ip addr show',
        'ip -br a',
        'ip r',
        'ip route get 1.1.1.1',
        'ip -6 route show table main',
        'ip link show dev lo',
        'ip -s link',
      ],
      asks: [
        'ip link set lo down',
        'ip route add default via 10.0.0.1',
        'ip netns exec x sh',
        'ip -batch f',
        'ip addr $V',
      ],
    },
  },
];
