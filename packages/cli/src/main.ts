// `toolbelt <command>`: a table of commands, each in its own file.
import { parseArgs } from 'node:util';
import { EXIT, UsageError, type Command, type Io } from './command.js';
import { ConfigError } from '@toolbelt/core';
import { callCommand } from './commands/call.js';
import { initCommand } from './commands/init.js';
import { logCommand } from './commands/log.js';
import { mcpCommand } from './commands/mcp.js';
import { serveCommand } from './commands/serve.js';
import { toolsCommand } from './commands/tools.js';

export const COMMANDS: Command[] = [toolsCommand, callCommand, initCommand, mcpCommand, serveCommand, logCommand];

function help(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  return [
    'toolbelt — tools for AI agents: validated, policy-checked, approved, logged.',
    '',
    'Usage: toolbelt <command> [options]',
    '',
    ...COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    'Run `toolbelt <command> --help` for a command\'s options.',
  ].join('\n');
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
    full.stdout.write('toolbelt 0.1.0\n');
    return EXIT.ok;
  }
  const command = COMMANDS.find((c) => c.name === name);
  if (!command) {
    full.stderr.write(`toolbelt: unknown command "${name}". Commands: ${COMMANDS.map((c) => c.name).join(', ')}.\n`);
    return EXIT.usage;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    full.stdout.write(`${command.usage}\n`);
    return EXIT.ok;
  }
  let parsed;
  try {
    parsed = parseArgs({ args: rest, options: command.options, allowPositionals: command.positionals ?? false, strict: true });
  } catch (err) {
    full.stderr.write(`toolbelt ${name}: ${(err as Error).message}\n${command.usage}\n`);
    return EXIT.usage;
  }
  try {
    return await command.run(parsed.values, parsed.positionals, full);
  } catch (err) {
    if (err instanceof UsageError || err instanceof ConfigError) {
      full.stderr.write(`toolbelt ${name}: ${err.message}\n`);
      return EXIT.usage;
    }
    throw err;
  }
}
