// Processes, services, archives, toolchains and the network.
import { abbreviates, hasFlag, parseOptions } from '../options.js';
import { block, destroy, execute, read, write, type Handler } from '../types.js';
import { resolved } from './files.js';

export const kill: Handler = (cmd) => {
  const args = cmd.args.map((w) => w.value);
  if (args[0] === '-l' || args[0] === '-L') return read(cmd);
  // `kill -9 -1` / `kill -- -1` signal every process the user may signal.
  if (args.slice(1).includes('-1') || (args[0] === '-1' && args.length > 1 && args[1] === '--'))
    return block(cmd, 'signals every process');
  return destroy(cmd, 'stops processes');
};

export const killByName: Handler = (cmd) => destroy(cmd, 'stops processes by name');

export const power: Handler = (cmd) => destroy(cmd, 'shuts down or restarts the machine');

const SYSTEMCTL_READ = new Set([
  'status',
  'show',
  'cat',
  'help',
  'list-units',
  'list-unit-files',
  'list-timers',
  'list-sockets',
  'list-dependencies',
  'list-jobs',
  'list-machines',
  'is-active',
  'is-enabled',
  'is-failed',
  'is-system-running',
  'get-default',
  'show-environment',
]);
const SYSTEMCTL_DESTROY = new Set([
  'stop',
  'kill',
  'mask',
  'disable',
  'isolate',
  'poweroff',
  'reboot',
  'halt',
  'kexec',
  'suspend',
  'hibernate',
  'rescue',
  'emergency',
  'default',
  'clean',
  'freeze',
]);

export const systemctl: Handler = (cmd) => {
  const verb = cmd.args.find((w) => !w.value.startsWith('-'))?.value;
  if (!verb || SYSTEMCTL_READ.has(verb)) return read(cmd);
  if (SYSTEMCTL_DESTROY.has(verb)) return destroy(cmd, 'stops or disables services');
  return execute(cmd);
};

export const crontab: Handler = (cmd) => {
  const o = parseOptions(cmd.args, { shortArgs: 'u', longArgs: [] });
  if (o.short.has('l')) return read(cmd);
  if (o.short.has('r')) return destroy(cmd, 'removes the crontab');
  return execute(cmd, 'installs commands the system runs on a schedule');
};

const CONTAINER_READ = new Set([
  'ps',
  'images',
  'inspect',
  'logs',
  'version',
  'info',
  'top',
  'port',
  'diff',
  'history',
  'search',
  'events',
  'stats',
]);
const CONTAINER_LIST = new Set(['ls', 'list', 'inspect', 'ps', 'logs', 'config', 'images', 'top', 'port', 'version']);
const CONTAINER_DESTROY = new Set(['rm', 'rmi', 'kill', 'prune', 'down', 'stop']);

/** docker / podman: listings read, removals destroy, the rest runs containers. */
export const docker: Handler = (cmd) => {
  const words = cmd.args.filter((w) => !w.value.startsWith('-')).map((w) => w.value);
  const [a, b] = words;
  if (!a) return read(cmd);
  if (CONTAINER_READ.has(a)) return read(cmd);
  if (CONTAINER_DESTROY.has(a) || CONTAINER_DESTROY.has(b ?? ''))
    return destroy(cmd, 'removes containers, images or volumes');
  if (b && CONTAINER_LIST.has(b)) return read(cmd);
  return execute(cmd);
};

const KUBE_READ = new Set([
  'get',
  'describe',
  'logs',
  'explain',
  'version',
  'top',
  'api-resources',
  'api-versions',
  'cluster-info',
  'diff',
]);
export const kubectl: Handler = (cmd) => {
  const words = cmd.args.filter((w) => !w.value.startsWith('-')).map((w) => w.value);
  const [a, b] = words;
  if (!a || KUBE_READ.has(a)) return read(cmd);
  if (a === 'config' && b && /^(view|get-contexts|current-context|get-clusters|get-users)$/.test(b)) return read(cmd);
  if (a === 'auth' && b === 'can-i') return read(cmd);
  if (a === 'delete' || a === 'drain') return destroy(cmd, 'deletes cluster resources');
  return execute(cmd);
};

const VERSION_FLAGS = new Set(['--version', '-V', '--help', '-h', 'version', 'help']);
const NODE_PM_READ = new Set([
  'ls',
  'list',
  'll',
  'la',
  'view',
  'info',
  'show',
  'outdated',
  'why',
  'explain',
  'root',
  'prefix',
  'bin',
  'help',
  'search',
  'doctor',
  'fund',
  'licenses',
]);

/** npm, pnpm, yarn, bun: queries read; installs and scripts run code. */
export const nodePackageManager: Handler = (cmd) => {
  const [first, second] = cmd.args.map((w) => w.value);
  // Bare `yarn` installs; bare npm, pnpm and bun print their usage.
  if (!first) return cmd.name === 'yarn' ? execute(cmd, 'installs dependencies') : read(cmd);
  if (VERSION_FLAGS.has(first) || first === '-v')
    return first === 'version' && cmd.args.length > 1 ? write(cmd, 'bumps the version') : read(cmd);
  if (NODE_PM_READ.has(first)) return read(cmd);
  if (first === 'config' && (second === 'get' || second === 'list' || second === 'ls')) return read(cmd);
  if (first === 'audit' && !cmd.args.some((w) => w.value === 'fix')) return read(cmd);
  if (first === 'unpublish') return destroy(cmd, 'removes a published package');
  return execute(cmd);
};

const PIP_READ = new Set(['list', 'show', 'freeze', 'check', 'help', 'search', 'inspect', 'index', 'debug']);
export const pip: Handler = (cmd) => {
  const first = cmd.args.find((w) => !w.value.startsWith('-'))?.value;
  if (!first && cmd.args.some((w) => VERSION_FLAGS.has(w.value))) return read(cmd);
  if (first && PIP_READ.has(first)) return read(cmd);
  return execute(cmd);
};

/** Interpreters and toolchains: asking for the version reads, anything else runs code. */
export const toolchain: Handler = (cmd) => {
  const args = cmd.args.map((w) => w.value);
  if (args.length === 1 && (VERSION_FLAGS.has(args[0]) || (cmd.name === 'node' && args[0] === '-v'))) return read(cmd);
  if (
    cmd.name === 'go' &&
    /^(version|env|list|doc)$/.test(args[0] ?? '') &&
    !args.includes('-w') &&
    !args.includes('-u')
  )
    return read(cmd);
  if (cmd.name === 'cargo' && /^(tree|metadata|search|version)$/.test(args[0] ?? '')) return read(cmd);
  return execute(cmd);
};

export const network: Handler = (cmd) => execute(cmd, 'uses the network');

export const rsync: Handler = (cmd) => {
  const o = parseOptions(cmd.args, {
    shortArgs: 'efT',
    longArgs: ['rsh', 'rsync-path', 'filter', 'exclude', 'include'],
  });
  if ([...o.long.keys()].some((k) => k.startsWith('del') || 'remove-source-files'.startsWith(k)))
    return destroy(cmd, 'deletes files');
  // A copy between local paths is still rsync's own transfer protocol, with options that run
  // programs; it is not an edit we can follow.
  return execute(cmd, 'copies with rsync, which may reach other hosts or run programs');
};

/** Long options of tar that run programs or reach other hosts, matched with their abbreviations. */
const TAR_RUNS = [
  'use-compress-program',
  'to-command',
  'info-script',
  'new-volume-script',
  'checkpoint-action',
  'rsh-command',
  'rmt-command',
  'checkpoint',
  'index-file',
  'volno-file',
  'force-local',
  'absolute-names',
];

/** tar: -t lists; extracting writes where it is told; options that run programs execute. */
export const tar: Handler = (cmd, scope) => {
  const first = cmd.args[0]?.value ?? '';
  // Old style `tar xzf a.tgz`: the first word is a bundle of letters.
  const bundle = first && !first.startsWith('-') ? first : '';
  const o = parseOptions(cmd.args, {
    shortArgs: 'fCIFTXgKLNV',
    longArgs: [
      'file',
      'directory',
      'use-compress-program',
      'to-command',
      'info-script',
      'new-volume-script',
      'checkpoint-action',
      'files-from',
      'exclude-from',
    ],
  });
  if (o.values.has('-I') || o.values.has('-F') || abbreviates(o, TAR_RUNS) || hasFlag(o, 'P') || bundle.includes('P')) {
    return execute(cmd, 'runs a program, reaches another host or writes outside the directory');
  }
  // `-f host:file` is a remote archive reached over rsh.
  if ([...(o.values.get('-f') ?? []), ...(o.values.get('--file') ?? [])].some((w) => /^[^/]*:/.test(w.value)))
    return execute(cmd, 'reads a remote archive');
  const has = (c: string, long: string[]) => bundle.includes(c) || hasFlag(o, c, long);
  const dir = o.values.get('-C')?.[0] ?? o.values.get('--directory')?.[0];
  const into = dir ? scope.resolve(dir) : scope.cwd;
  if (has('x', ['extract', 'get'])) return write(cmd, 'extracts files', into ? [into] : []);
  const archive = o.values.get('-f')?.[0] ?? o.values.get('--file')?.[0];
  const archivePath = archive ? scope.resolve(archive) : undefined;
  if (
    has('c', ['create']) ||
    has('r', ['append']) ||
    has('u', ['update']) ||
    has('A', ['catenate', 'concatenate']) ||
    o.long.has('delete')
  )
    return write(cmd, 'writes an archive', archivePath ? [archivePath] : []);
  if (has('t', ['list']) || has('d', ['diff', 'compare'])) return read(cmd);
  return execute(cmd);
};

export const unzip: Handler = (cmd, scope) => {
  const o = parseOptions(cmd.args, { shortArgs: 'dx', longArgs: [] });
  if (hasFlag(o, 'lZvpt')) return read(cmd);
  const dir = o.values.get('-d')?.[0];
  const into = dir ? scope.resolve(dir) : scope.cwd;
  return write(cmd, 'extracts files', into ? [into] : []);
};

/** gzip and friends replace a file with its (de)compressed form unless told to print. */
export const compressor: Handler = (cmd, scope) => {
  const o = parseOptions(cmd.args, { shortArgs: 'S', longArgs: ['suffix'] });
  if (hasFlag(o, 'lct', ['list', 'stdout', 'to-stdout', 'test']) || o.positional.length === 0) return read(cmd);
  return write(cmd, 'replaces the files with their (de)compressed form', resolved(o.positional, scope));
};

export const patch: Handler = (cmd, scope) => {
  const o = parseOptions(cmd.args, {
    shortArgs: 'piodrDBFVYzg',
    longArgs: ['strip', 'input', 'output', 'directory', 'reject-file'],
  });
  if (o.long.has('dry-run')) return read(cmd);
  // patch edits the files its input names, below the directory it runs in.
  const dir = o.values.get('-d')?.[0] ?? o.values.get('--directory')?.[0];
  const into = dir ? scope.resolve(dir) : scope.cwd;
  return write(cmd, 'patches files', into ? [into] : []);
};

/** `let` evaluates arithmetic, where `a[$(cmd)]` runs cmd. */
export const let_: Handler = (cmd) => {
  if (cmd.args.some((w) => !w.static || /\$\(|`/.test(w.value)))
    return execute(cmd, 'arithmetic with command substitution');
  return read(cmd);
};

export const alias: Handler = (cmd) =>
  cmd.args.some((w) => w.value.includes('=')) ? execute(cmd, 'defines an alias') : read(cmd);
