// Package managers asked what is installed: `npm --version`, `npm ls`, `npm root`, `pip --version`. npm answers from package.json and node_modules without running any
// package's scripts, but may look for its own update over the network and note that in the home
// directory; pip is Python, and starting it runs the `.pth` files of the site-packages it finds (a
// virtualenv in the workspace is code the workspace wrote). So both are reads only where reads run
// in the sandbox (read-only, no network). Everything else (install, run, view, which reach the
// network or run scripts) is the handlers' part (commands/system.ts).
import type { Card } from './card.js';
import { getopt, has, table, type OptionTable } from './getopt.js';
import { no, OK, type Args, type ReadSpec, type Verdict } from './spec.js';

const OUTSIDE =
  'a package manager may reach the network, write its caches or run site code; it is a read only inside the sandbox';

const NPM_GLOBAL = 'loglevel= silent quiet verbose color= no-color unicode no-unicode';
const NPM_LS = table(
  'aglpw:',
  `${NPM_GLOBAL} all depth= json long parseable omit= include= link package-lock-only workspace= workspaces include-workspace-root global prod production dev development only= expect-results expect-result-count=`,
);
const NPM_SUB: Record<string, OptionTable> = {
  ls: NPM_LS,
  list: NPM_LS,
  ll: NPM_LS,
  la: NPM_LS,
  root: table('gw:', `${NPM_GLOBAL} global workspace= workspaces`),
  prefix: table('gw:', `${NPM_GLOBAL} global workspace= workspaces`),
};

function npmRead(a: Args): Verdict {
  const [first, ...rest] = a.operands;
  if (!first) return has(a, '-v', '--version') ? OK : no('npm without a subcommand we know');
  if (first.value === 'version' || first.value === '-v' || first.value === '--version')
    return rest.length ? no('npm version with an argument bumps the version') : OK;
  if (!first.static || !Object.hasOwn(NPM_SUB, first.value))
    return no(`npm ${first.source} is not a query we know to be read-only`);
  const parsed = getopt(rest, NPM_SUB[first.value]);
  if (!parsed.ok) return no(parsed.why);
  if (has(parsed, '-g', '--global')) return no('it reads the global packages, outside the workspace');
  const computed = [...parsed.operands, ...parsed.options.flatMap((o) => (o.value ? [o.value] : []))].find(
    (w) => !w.static,
  );
  return computed ? no(`${computed.source} is computed`) : OK;
}

const npm: ReadSpec = {
  // Options before the subcommand: only --version; the subcommand's own table reads the rest.
  options: table('v', 'version'),
  operands: 'data',
  stopAtOperand: true,
  check: (_cmd, a, scope) => (scope.confined ? npmRead(a) : no(OUTSIDE)),
};

const pip: ReadSpec = {
  options: table('V', 'version'),
  operands: 'data',
  stopAtOperand: true,
  // Only the version: any query starts pip's Python, which opens network sockets even for `pip show`
  // (caught running the shell corpus under strace) and runs the site-packages' .pth files.
  check: (_cmd, a, scope) => {
    if (!scope.confined) return no(OUTSIDE);
    return !a.operands.length && has(a, '-V', '--version')
      ? OK
      : no('pip starts Python, which may open network sockets and run site code');
  },
};

export const PACKAGE_CARDS: Card[] = [
  {
    names: ['npm'],
    worst: 'destructive',
    spec: npm,
    examples: { asks: ['npm --version', 'npm ls'], code: ['npm install', 'npm run build', 'npm exec x'] },
    confined: {
      read: [
        'npm --version',
        'npm -v',
        'npm version',
        'npm ls',
        'npm ls --depth=0',
        'npm ls --all --json',
        'npm list zod',
        'npm root',
        'npm prefix',
      ],
      asks: [
        'npm ls -g',
        'npm version patch',
        'npm ls --depth=$D',
        'npm view zod',
        'npm config get //registry.npmjs.org/:_authToken',
      ],
    },
  },
  {
    names: ['pip', 'pip3'],
    worst: 'execute',
    spec: pip,
    examples: { asks: ['pip list', 'pip show requests'], code: ['pip install requests', 'pip3 uninstall -y x'] },
    confined: {
      read: ['pip --version', 'pip3 -V'],
      asks: [
        'pip list',
        'pip show requests',
        'pip freeze',
        'pip list --outdated',
        'pip download x',
        'pip install requests',
      ],
    },
  },
];
