// `toolbelt init`: writes a starting config into the root, and beside it the config's JSON Schema,
// which the config names as its "$schema" so that editors complete and check it.
import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { EXIT, UsageError, type Command } from '../command.js';
import { configJsonSchema, SCHEMA_FILE } from '../config/json-schema.js';
import { CONFIG_FILE } from '../config/load.js';
import { recordTrust } from '../config/trust.js';

export const STARTER_CONFIG = {
  $schema: `./${SCHEMA_FILE}`,
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

const USAGE = `Usage: toolbelt init [--root DIR] [--force] [--schema]

Writes ${CONFIG_FILE} and ${SCHEMA_FILE} (its JSON Schema, for editors) into the root,
trusts the config it wrote (\`toolbelt trust\`: after you edit it, run that again), and adds
.toolbelt/ (the execution log, with call inputs and results) to its .gitignore.
  --force   overwrite an existing ${CONFIG_FILE}
  --schema  write only ${SCHEMA_FILE} (after upgrading toolbelt)`;

export const initCommand: Command = {
  name: 'init',
  usage: USAGE,
  options: { root: { type: 'string' }, force: { type: 'boolean' }, schema: { type: 'boolean' } },
  async run(values, _pos, io) {
    const root = resolve((values.root as string | undefined) ?? process.cwd());
    if (!existsSync(root)) throw new UsageError(`--root ${root} does not exist`);
    const file = join(root, CONFIG_FILE);
    const schemaFile = join(root, SCHEMA_FILE);
    if (!values.schema && existsSync(file) && !values.force) {
      throw new UsageError(
        `${file} already exists; pass --force to overwrite it, or --schema to write only ${SCHEMA_FILE}`,
      );
    }
    writeFileSync(schemaFile, JSON.stringify(configJsonSchema(), null, 2) + '\n');
    if (values.schema) {
      io.stdout.write(`wrote ${schemaFile}\n`);
      return EXIT.ok;
    }
    const text = JSON.stringify(STARTER_CONFIG, null, 2) + '\n';
    writeFileSync(file, text);
    const ignored = ignoreStateDir(root);
    io.stdout.write(
      `wrote ${file} (and ${SCHEMA_FILE}, which editors use to complete and check it)\n${ignored}mode "safe": reads run, writes and commands ask. Edit the rules to taste; see docs/policy.md.\n`,
    );
    io.stdout.write(trustWritten(file, text, root));
    return EXIT.ok;
  },
};

/** Trusts the config just written: it is the person's own. Returns the line that says so, or why not. */
function trustWritten(file: string, text: string, root: string): string {
  try {
    recordTrust(file, Buffer.from(text), [root], process.env);
    return 'trusted it: after you edit it, review and run `toolbelt trust` again (toolbelt refuses a changed config).\n';
  } catch (err) {
    return `not trusted: ${(err as Error).message}\n`;
  }
}

/**
 * .toolbelt/ holds the execution log, whose entries carry call inputs and results (whole files
 * written or read): it must not be committed by accident. Returns a line saying what was done.
 */
function ignoreStateDir(root: string): string {
  const file = join(root, '.gitignore');
  const text = existsSync(file) ? readFileSync(file, 'utf8') : '';
  if (/^\/?\.toolbelt\/?\s*$/m.test(text)) return '';
  appendFileSync(file, `${text && !text.endsWith('\n') ? '\n' : ''}# toolbelt's execution log\n.toolbelt/\n`);
  return `added .toolbelt/ (the execution log: call inputs and results) to ${file}\n`;
}
