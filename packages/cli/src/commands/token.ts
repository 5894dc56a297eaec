// `toolbelt token`: make a gateway token and the config entry that holds only its hash, so the
// token itself never sits in a file an agent's tools could reach.
import { randomBytes } from 'node:crypto';
import { hashToken, ROLES, type Role } from '@toolbelt/gateway';
import { EXIT, UsageError, type Command, type Io } from '../command.js';

const USAGE = `Usage: toolbelt token new [--name NAME] [--role ROLE ...] [--agent ID ...]
       toolbelt token hash < token-file

  new    prints a new random token, once, and the entry to add under gateway.tokens in the
         config: it holds the token's hash, never the token.
  hash   prints the hash of a token read from standard input (not from the command line, where
         other users of the machine can see it), for "tokenHash".

  --name NAME   the entry's name (shown as who approved a call)
  --role ROLE   ${ROLES.join(' | ')} (repeat; default call)
  --agent ID    an agent the token may act for (repeat; default every agent)`;

/** 32 characters of base64url: 192 random bits. */
const newToken = () => `tb_${randomBytes(24).toString('base64url')}`;

async function readAll(stdin: NodeJS.ReadableStream): Promise<string> {
  let text = '';
  for await (const chunk of stdin) {
    text += chunk.toString();
    if (text.length > 4096)
      throw new UsageError('token hash: standard input is over 4096 characters; give it one token');
  }
  return text;
}

function newEntry(values: Record<string, unknown>, io: Io): number {
  const roles = (values.role as string[] | undefined) ?? ['call'];
  const unknown = roles.filter((r) => !ROLES.includes(r as Role));
  if (unknown.length) throw new UsageError(`unknown role ${unknown.join(', ')}; use any of ${ROLES.join(', ')}`);
  const token = newToken();
  const entry = {
    ...(values.name ? { name: String(values.name) } : {}),
    tokenHash: hashToken(token),
    roles,
    ...(values.agent ? { agents: values.agent as string[] } : {}),
  };
  io.stdout.write(`token: ${token}\n`);
  io.stdout.write('  (shown once: give it to the client; the gateway keeps only its hash)\n');
  io.stdout.write(`add under "gateway": { "tokens": [ ... ] } in the config:\n  ${JSON.stringify(entry)}\n`);
  return EXIT.ok;
}

async function hashEntry(io: Io): Promise<number> {
  if (io.stdin.isTTY) io.stderr.write('Type or paste the token, then press Ctrl-D.\n');
  const token = (await readAll(io.stdin)).replace(/\r?\n$/, '');
  if (!token.trim())
    throw new UsageError(
      'token hash: standard input is empty; pipe the token in, e.g. toolbelt token hash < token-file',
    );
  if (/\s/.test(token))
    throw new UsageError('token hash: the token holds white space or several lines; give it one token');
  if (token.length < 16)
    throw new UsageError(
      'token hash: the token is shorter than 16 characters; use a long random one (toolbelt token new)',
    );
  io.stdout.write(`${hashToken(token)}\n`);
  return EXIT.ok;
}

export const tokenCommand: Command = {
  name: 'token',
  usage: USAGE,
  positionals: true,
  options: {
    name: { type: 'string' },
    role: { type: 'string', multiple: true },
    agent: { type: 'string', multiple: true },
  },
  async run(values, positionals, io) {
    const [action, ...extra] = positionals;
    if (extra.length)
      throw new UsageError(
        `unexpected ${extra.map((e) => JSON.stringify(e)).join(' ')}; a token is read from standard input, never from the command line`,
      );
    if (action === 'new') return newEntry(values, io);
    if (action === 'hash') {
      if (values.name || values.role || values.agent)
        throw new UsageError('--name, --role and --agent only apply to toolbelt token new');
      return hashEntry(io);
    }
    throw new UsageError(
      `${action ? `unknown action "${action}"` : 'say what to do'}; use toolbelt token new or toolbelt token hash\n${USAGE}`,
    );
  },
};
