// `toolbelt <command>`: a table of commands, each in its own file.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { EXIT, UsageError, type Command, type Io } from './command.js';

/** The command table: names and summaries for help; each command's code loads only when it runs. */
interface CommandEntry {
  name: string;
  summary: string;
  load(): Promise<Command>;
}

export const COMMANDS: CommandEntry[] = [
  {
    name: 'tools',
    summary: 'List the tools with their effect and description',
    load: async () => (await import('./commands/tools.js')).toolsCommand,
  },
  {
    name: 'call',
    summary: 'Run one tool call through policy and approval',
    load: async () => (await import('./commands/call.js')).callCommand,
  },
  {
    name: 'chat',
    summary: 'Talk to a model that uses the tools, with terminal approval',
    load: async () => (await import('./commands/chat.js')).chatCommand,
  },
  {
    name: 'agent',
    summary: 'Be an agent of a gateway: think cycles, inbox, spaces and memories, driven by a model',
    load: async () => (await import('./commands/agent.js')).agentCommand,
  },
  {
    name: 'init',
    summary: 'Write a starting toolbelt.config.json into the workspace root',
    load: async () => (await import('./commands/init.js')).initCommand,
  },
  {
    name: 'trust',
    summary: 'Trust the workspace config as it is now (after reviewing it)',
    load: async () => (await import('./commands/trust.js')).trustCommand,
  },
  {
    name: 'mcp',
    summary: 'Serve the tools and configured MCP servers as one MCP server',
    load: async () => (await import('./commands/mcp.js')).mcpCommand,
  },
  {
    name: 'serve',
    summary: 'Serve the tools over HTTP: calls, results, approvals, events',
    load: async () => (await import('./commands/serve.js')).serveCommand,
  },
  {
    name: 'token',
    summary: 'Make a gateway token and the config entry holding only its hash',
    load: async () => (await import('./commands/token.js')).tokenCommand,
  },
  {
    name: 'auth',
    summary: 'Sign in to Google for the Gmail and Calendar tools',
    load: async () => (await import('./commands/auth.js')).authCommand,
  },
  {
    name: 'doctor',
    summary: 'Check what toolbelt needs here: Node, config trust, bash, git, ripgrep, the sandbox',
    load: async () => (await import('./commands/doctor.js')).doctorCommand,
  },
  {
    name: 'log',
    summary: 'Show the execution log of the CLI and the gateway',
    load: async () => (await import('./commands/log.js')).logCommand,
  },
];

/** The folder of the running CLI's package (dist/main.js and dist/bundle/main.js both sit inside it). */
function cliHome(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json')) && dirname(dir) !== dir) dir = dirname(dir);
  return dir;
}

function help(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  return [
    'toolbelt — tools for AI agents: validated, policy-checked, approved, logged.',
    '',
    'Usage: toolbelt <command> [options]',
    '',
    ...COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    "Run `toolbelt <command> --help` for a command's options.",
  ].join('\n');
}

/** What was wrong with a command's arguments, in our words: node's own unknown-option message quotes unevenly. */
async function argsProblem(err: NodeJS.ErrnoException, command: Command): Promise<string> {
  const unknown = /^Unknown option '(-{1,2}[^']*)'/.exec(err.message)?.[1];
  if (err.code !== 'ERR_PARSE_ARGS_UNKNOWN_OPTION' || !unknown) return err.message;
  const flags = Object.keys(command.options).map((o) => `--${o}`);
  const hint = unknown.startsWith('--') ? (await import('@toolbelt/core')).didYouMean(unknown, flags) : '';
  const dash = command.positionals
    ? ` To pass a value that starts with "-", put it after "--": -- ${JSON.stringify(unknown)}.`
    : '';
  return `unknown option "${unknown}".${hint}${dash}`;
}

export async function main(argv: string[], io?: Partial<Io>): Promise<number> {
  const full: Io = {
    stdout: io?.stdout ?? process.stdout,
    stderr: io?.stderr ?? process.stderr,
    stdin: io?.stdin ?? process.stdin,
    interactive: io?.interactive ?? Boolean(process.stdin.isTTY && process.stdout.isTTY),
  };
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    full.stdout.write(help() + '\n');
    return name ? EXIT.ok : EXIT.usage;
  }
  if (name === '--version' || name === '-v') {
    // Loaded here, not at the top: the other commands need nothing of core before they start.
    full.stdout.write(`toolbelt ${(await import('@toolbelt/core')).VERSION} (${cliHome()})\n`);
    return EXIT.ok;
  }
  const entry = COMMANDS.find((c) => c.name === name);
  if (!entry) {
    const names = COMMANDS.map((c) => c.name);
    const hint = name.startsWith('-') ? '' : (await import('@toolbelt/core')).didYouMean(name, names);
    full.stderr.write(`toolbelt: unknown command "${name}".${hint} Commands: ${names.join(', ')}.\n`);
    return EXIT.usage;
  }
  const command = await entry.load();
  if (rest.includes('--help') || rest.includes('-h')) {
    full.stdout.write(`${command.usage}\n`);
    return EXIT.ok;
  }
  let parsed;
  try {
    parsed = parseArgs({
      args: rest,
      options: command.options,
      allowPositionals: command.positionals ?? false,
      strict: true,
    });
  } catch (err) {
    full.stderr.write(
      `toolbelt ${name}: ${await argsProblem(err as NodeJS.ErrnoException, command)}\n${command.usage}\n`,
    );
    return EXIT.usage;
  }
  try {
    return await command.run(parsed.values, parsed.positionals, full);
  } catch (err) {
    // By name, so help and unknown commands never load core.
    if (err instanceof UsageError || (err as Error)?.name === 'ConfigError') {
      full.stderr.write(`toolbelt ${name}: ${(err as Error).message}\n`);
      return EXIT.usage;
    }
    // The gateway database could not be opened: its one sentence says what, where and what to do.
    if ((err as Error)?.name === 'StoreOpenError' || (err as Error)?.name === 'StoreVersionError') {
      full.stderr.write(`toolbelt ${name}: ${(err as Error).message}\n`);
      return EXIT.toolError;
    }
    throw err;
  }
}
