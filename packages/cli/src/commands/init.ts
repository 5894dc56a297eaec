// `toolbelt init`: writes a commented starting config into the root.
import { existsSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { EXIT, UsageError, type Command } from '../command.js';
import { CONFIG_FILE } from '../runtime.js';

export const STARTER_CONFIG = {
  mode: 'safe',
  rules: [
    { tool: 'shell_exec', command: 'npm test', action: 'allow', reason: 'tests are safe to run' },
    { tool: 'shell_exec', command: 'git push', action: 'ask' },
    { path: 'secrets/**', action: 'deny', reason: 'never touch secrets/' },
  ],
  mcpServers: {},
  tools: [],
  toolSettings: {},
};

export const initCommand: Command = {
  name: 'init',
  usage: `Usage: toolbelt init [--root DIR] [--force]`,
  options: { root: { type: 'string' }, force: { type: 'boolean' } },
  async run(values, _pos, io) {
    const root = resolve((values.root as string | undefined) ?? process.cwd());
    if (!existsSync(root)) throw new UsageError(`--root ${root} does not exist`);
    const file = join(root, CONFIG_FILE);
    if (existsSync(file) && !values.force) throw new UsageError(`${file} already exists; pass --force to overwrite it`);
    writeFileSync(file, JSON.stringify(STARTER_CONFIG, null, 2) + '\n');
    io.stdout.write(`wrote ${file}\nmode "safe": reads run, writes and commands ask. Edit the rules to taste; see docs/policy.md.\n`);
    return EXIT.ok;
  },
};
