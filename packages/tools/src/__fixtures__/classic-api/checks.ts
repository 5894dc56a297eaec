// The rest of what the classic Tool API promises, each printed for the test to compare: the
// registry's methods, validation, confirmation, the modes, and a classic tool run by the executor.
import { MemoryLogSink } from '@toolbelt/core';
import {
  BaseTool,
  Executor,
  Policy,
  ToolRegistry,
  type Tool,
  type ToolConfirmation,
  type ToolDefinition,
  type ToolExecutionResult,
} from '@toolbelt/core/classic';
import { createBuiltinTools } from '@toolbelt/tools';
import { z } from 'zod';
import { MyTool } from './custom-tool.js';

const NoteSchema = z.object({ text: z.string() });

/** A tool that asks first: its confirmation says it writes. */
class SaveNote extends BaseTool<z.infer<typeof NoteSchema>> {
  readonly name = 'save_note';
  readonly description = 'Saves a note';
  readonly schema = NoteSchema;
  getConfirmation(params: z.infer<typeof NoteSchema>): ToolConfirmation {
    return { required: true, type: 'write', message: `save "${params.text}"` };
  }
  async execute(params: z.infer<typeof NoteSchema>): Promise<ToolExecutionResult> {
    return { content: `saved ${params.text}` };
  }
}

const registry = new ToolRegistry();
registry.registerAll(createBuiltinTools());
registry.register(new MyTool());
registry.register(new SaveNote());

const definitions: ToolDefinition[] = registry.getAllDefinitions();
const tools: Tool[] = registry.getAllTools();
let duplicate = '';
try {
  registry.register(new MyTool());
} catch (err) {
  duplicate = (err as Error).message;
}

const my = registry.getTool('my_tool')!;
const direct = await my.execute({ input: 'x' });
const confirmations = Object.fromEntries(
  ['read_file', 'write_file', 'shell_exec', 'glob', 'grep', 'edit_file'].map((n) => [
    n,
    registry.getTool(n)!.getConfirmation?.({}),
  ]),
);

/** my_tool and save_note through an executor in one mode, with no one to ask. */
async function inMode(mode: 'none' | 'safe' | 'all') {
  const log = new MemoryLogSink();
  const executor = new Executor({ registry, policy: new Policy({ mode }), log });
  const seen: string[] = [];
  executor.events.on((e) => seen.push(e.type));
  const mine = await executor.call({ tool: 'my_tool', input: { input: 'hello' } });
  const bad = await executor.call({ tool: 'my_tool', input: { input: 42 } });
  const note = await executor.call({ tool: 'save_note', input: { text: 'n' } });
  await executor.logs.flush();
  return {
    my: mine.status,
    note: note.status,
    content: mine.content,
    bad: bad.status === 'error' ? bad.error.message : bad.status,
    events: seen.includes('tool.result'),
    logged: log.entries.map((e) => e.tool),
  };
}

console.log(
  JSON.stringify({
    names: definitions.map((d) => d.name),
    counts: [definitions.length, tools.length],
    myDefinition: registry.getAllDefinitions().find((d) => d.name === 'my_tool'),
    duplicate,
    has: registry.has('my_tool'),
    validate: [my.validate({ input: 'x' }), my.validate({} as { input: string })],
    direct,
    confirmations,
    modes: { none: await inMode('none'), safe: await inMode('safe'), all: await inMode('all') },
    unregister: [registry.unregister('my_tool'), registry.getTool('my_tool') === undefined],
  }),
);
