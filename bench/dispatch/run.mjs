// Dispatch overhead: an executor call of a no-op tool with a 3-field Zod schema (validation,
// policy, result, event, metrics) against calling the function directly, LangChain's
// tool().invoke() with the same schema, and the official MCP SDK client over its in-memory transport.
import { z } from 'zod';
import { tool as lcTool } from '@langchain/core/tools';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { defineTool, Executor, ToolRegistry, EventBus, Policy } from '../../packages/core/dist/index.js';
import { compare, markdownTable, machineLine, writeDocSection } from '../lib/harness.mjs';

const shape = { name: z.string(), count: z.number().int(), flag: z.boolean().optional() };
const schema = z.object(shape);
const input = { name: 'abc', count: 3, flag: true };
const noop = (args) => `ok ${args.name}`;

// toolbelt: full pipeline with a listener on events, so events are really built and delivered.
const events = new EventBus();
let seen = 0;
events.on(() => seen++);
const registry = new ToolRegistry().register(
  defineTool({ name: 'noop', description: 'Does nothing.', effect: 'read', input: schema, execute: noop }),
);
const executor = new Executor({ registry, events, policy: new Policy({ mode: 'safe' }) });

const lc = lcTool(async (args) => noop(args), { name: 'noop', description: 'Does nothing.', schema });

const server = new McpServer({ name: 'bench', version: '1.0.0' });
server.registerTool('noop', { description: 'Does nothing.', inputSchema: shape }, async (args) => ({
  content: [{ type: 'text', text: noop(args) }],
}));
const [clientT, serverT] = InMemoryTransport.createLinkedPair();
await server.connect(serverT);
const client = new Client({ name: 'bench-client', version: '1.0.0' });
await client.connect(clientT);

// Sanity: every subject really runs the tool and returns its output.
const check = await executor.call({ tool: 'noop', input });
if (check.status !== 'success' || check.content[0].text !== 'ok abc')
  throw new Error(`toolbelt returned ${JSON.stringify(check)}`);
if ((await lc.invoke(input)) !== 'ok abc') throw new Error('langchain did not run the tool');
if ((await client.callTool({ name: 'noop', arguments: input })).content[0].text !== 'ok abc')
  throw new Error('mcp did not run the tool');

const result = await compare({
  name: 'dispatch',
  anchor: 'direct call',
  iterations: Number(process.env.BENCH_ITER ?? 140000),
  warmup: 20000,
  // Every subject ran the tool and returned its text.
  answer: (r) =>
    typeof r === 'string' ? r : r.status !== undefined && r.status !== 'success' ? r.status : r.content[0].text,
  subjects: {
    'direct call': async () => noop(input),
    'toolbelt executor': () => executor.call({ tool: 'noop', input }),
    'langchain invoke': () => lc.invoke(input),
    'mcp sdk in-memory': () => client.callTool({ name: 'noop', arguments: input }),
  },
});
await client.close();

const row = (n) => result.rows.find((r) => r.subject === n);
const tb = row('toolbelt executor');
const lcRow = row('langchain invoke');
const mcp = row('mcp sdk in-memory');
const overheadP50 = tb.p50us - row('direct call').p50us;
const summary = [
  `toolbelt p50 per call: ${tb.p50us.toFixed(2)} µs (goal <= 10 µs): ${tb.p50us <= 10 ? 'met' : 'NOT met'}`,
  `toolbelt vs langchain invoke: ${(tb.callsPerSec / lcRow.callsPerSec).toFixed(1)}x the calls/s (goal >= 10x): ${tb.callsPerSec / lcRow.callsPerSec >= 10 ? 'met' : 'NOT met'}`,
  `toolbelt vs MCP SDK in-memory: ${(tb.callsPerSec / mcp.callsPerSec).toFixed(1)}x the calls/s`,
  `events delivered during the run: ${seen}`,
];
console.log(summary.join('\n'));
writeDocSection(
  'dispatch',
  `## dispatch — executor overhead per call

A no-op tool with a 3-field Zod schema, called one at a time. toolbelt runs the whole pipeline
(lookup, validation with defaults, effect, policy, result, events to a listener, metrics). ${machineLine()}

${markdownTable(result)}

- ${summary.slice(0, 3).join('\n- ')}
- p50 overhead over a direct call: ${overheadP50.toFixed(2)} µs.

Run: \`npm run build && node bench/dispatch/run.mjs\`.`,
  [
    {
      goal: 'executor p50 per call <= 10 µs',
      met: tb.p50us <= 10,
      figure: `${tb.p50us.toFixed(2)} µs`,
      why: 'see the dispatch section',
    },
    {
      goal: '>= 10x the calls/s of LangChain invoke',
      met: tb.callsPerSec / lcRow.callsPerSec >= 10,
      figure: `${(tb.callsPerSec / lcRow.callsPerSec).toFixed(1)}x`,
      why: 'see the dispatch section',
    },
  ],
);
