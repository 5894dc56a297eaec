#!/usr/bin/env node
// A real MCP server (official SDK, stdio) with the behaviours the reference servers lack:
// exiting mid-call, observing cancellation, changing its tool list, odd names, reporting its limits
// and where it runs.
import { readFileSync, writeFileSync } from 'node:fs';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const server = new McpServer(
  { name: 'fixture', version: '1.0.0' },
  { capabilities: { tools: { listChanged: true }, logging: {} } },
);
let cancellations = 0;
const text = (t) => ({ content: [{ type: 'text', text: t }] });

server.registerTool(
  'echo',
  { description: 'Echoes text.', inputSchema: { text: z.string() }, annotations: { readOnlyHint: true } },
  async ({ text: t }) => text(`echo: ${t}`),
);

// Takes keys beyond the ones it names, and says which it received.
server.registerTool(
  'keys',
  {
    description: 'Lists the argument names it received.',
    inputSchema: z.looseObject({ name: z.string() }),
    annotations: { readOnlyHint: true },
  },
  async (args) => text(Object.keys(args).sort().join(',')),
);

server.registerTool(
  'wipe',
  {
    description: 'Pretends to delete everything.',
    inputSchema: {},
    annotations: { readOnlyHint: true, destructiveHint: true },
  },
  async () => text('wiped'),
);

server.registerTool(
  'exit_mid_call',
  { description: 'Exits the process while the call is running.', inputSchema: {} },
  async () => {
    process.stderr.write('fixture: exiting mid-call on purpose\n');
    setTimeout(() => process.exit(3), 50);
    await new Promise(() => {});
  },
);

server.registerTool(
  'slow',
  {
    description: 'Waits, reporting progress, until done or cancelled.',
    inputSchema: { ms: z.number() },
    annotations: { readOnlyHint: true },
  },
  async ({ ms }, extra) => {
    const token = extra._meta?.progressToken;
    const started = Date.now();
    let step = 0;
    while (Date.now() - started < ms) {
      if (extra.signal.aborted) {
        cancellations++;
        return text('cancelled');
      }
      await new Promise((r) => setTimeout(r, 20));
      step++;
      if (token !== undefined) {
        await extra.sendNotification({
          method: 'notifications/progress',
          params: { progressToken: token, progress: step, message: `step ${step}` },
        });
      }
    }
    return text(`slept ${ms} ms`);
  },
);

server.registerTool(
  'cancellations',
  { description: 'How many calls saw their cancellation.', inputSchema: {}, annotations: { readOnlyHint: true } },
  async () => text(String(cancellations)),
);

server.registerTool(
  'fail',
  { description: 'Always returns an error result.', inputSchema: {}, annotations: { readOnlyHint: true } },
  async () => ({
    isError: true,
    content: [{ type: 'text', text: 'the fixture failed on purpose' }],
  }),
);

server.registerTool(
  'add_tool',
  { description: 'Adds a tool named by the input.', inputSchema: { name: z.string() } },
  async ({ name }) => {
    server.registerTool(
      name,
      { description: `Added at runtime: ${name}.`, inputSchema: {}, annotations: { readOnlyHint: true } },
      async () => text(`I am ${name}`),
    );
    return text(`added ${name}`);
  },
);

server.registerTool(
  'limits',
  { description: "Returns this process's resource limits.", inputSchema: {}, annotations: { readOnlyHint: true } },
  async () => text(readFileSync('/proc/self/limits', 'utf8')),
);

server.registerTool(
  'cwd',
  { description: "Returns this process's working directory.", inputSchema: {}, annotations: { readOnlyHint: true } },
  async () => text(process.cwd()),
);

server.registerTool(
  'env',
  {
    description: 'Returns the names of the environment variables.',
    inputSchema: {},
    annotations: { readOnlyHint: true },
  },
  async () => text(Object.keys(process.env).sort().join('\n')),
);

// What this process may do to the file system and the network (the sandbox tests ask it).
server.registerTool(
  'fs_probe',
  {
    description: 'Tries to write a file, read a file and fetch a URL; says what happened.',
    inputSchema: { write: z.string().optional(), read: z.string().optional(), url: z.string().optional() },
  },
  async ({ write, read, url }) => {
    const lines = [];
    const attempt = async (what, fn) => {
      try {
        lines.push(`${what}: ${(await fn()) ?? 'ok'}`);
      } catch (err) {
        lines.push(`${what}: ${err.cause?.code ?? err.code ?? err.message}`);
      }
    };
    if (write) await attempt(`write ${write}`, () => writeFileSync(write, 'from the server\n'));
    if (read) await attempt(`read ${read}`, () => JSON.stringify(readFileSync(read, 'utf8')));
    if (url) await attempt(`fetch ${url}`, async () => (await fetch(url)).status);
    return text(lines.join('\n'));
  },
);

server.registerTool(
  'log_line',
  { description: 'Sends a log notification.', inputSchema: { text: z.string() } },
  async ({ text: t }) => {
    await server.sendLoggingMessage({ level: 'warning', logger: 'fixture', data: t });
    return text('logged');
  },
);

server.registerResource('note', 'note://one', { title: 'A note', mimeType: 'text/plain' }, async (uri) => ({
  contents: [{ uri: uri.href, text: 'the note says hi' }],
}));
server.registerPrompt('greeting', { description: 'Greets someone.', argsSchema: { name: z.string() } }, ({ name }) => ({
  messages: [{ role: 'user', content: { type: 'text', text: `Say hello to ${name}.` } }],
}));

// Asks its user for a name and a count during the call (elicitation), and says what it got back.
server.registerTool(
  'ask_user',
  { description: 'Asks the user a question, then reports the answer.', inputSchema: {} },
  async () => {
    const answer = await server.server.elicitInput({
      mode: 'form',
      message: 'Which name?',
      requestedSchema: {
        type: 'object',
        properties: {
          name: { type: 'string', title: 'Name', default: 'Ada' },
          count: { type: 'integer', title: 'Count', default: 3 },
          color: { type: 'string', enum: ['red', 'green'], default: 'green' },
          note: { type: 'string', title: 'Note' },
        },
        required: ['name'],
      },
    });
    return text(JSON.stringify(answer));
  },
);

server.registerTool(
  'weird.name/with:chars',
  { description: 'A name that is not a valid registry name.', inputSchema: {}, annotations: { readOnlyHint: true } },
  async () => text('weird'),
);
server.registerTool(
  'weird_name_with_chars',
  { description: 'The clean twin of the weird name.', inputSchema: {}, annotations: { readOnlyHint: true } },
  async () => text('clean'),
);
server.registerTool(
  'x'.repeat(70),
  { description: 'A name too long for a registry name.', inputSchema: {}, annotations: { readOnlyHint: true } },
  async () => text('long'),
);

await server.connect(new StdioServerTransport());
process.stderr.write('fixture: ready\n');
