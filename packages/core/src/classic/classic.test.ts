import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { BaseTool as ContractBaseTool } from '../define.js';
import { Executor } from '../executor/executor.js';
import { Policy } from '../policy/policy.js';
import {
  BaseTool,
  ToolRegistry,
  type ToolConfirmation,
  type ToolExecutionOptions,
  type ToolExecutionResult,
} from './index.js';

const Echo = z.object({ text: z.string(), loud: z.boolean().default(false) });

class EchoTool extends BaseTool<z.output<typeof Echo>> {
  readonly name = 'echo';
  readonly description = 'Echoes text';
  readonly schema = Echo as z.ZodType<z.output<typeof Echo>>;
  confirm?: ToolConfirmation;
  getConfirmation(): ToolConfirmation {
    return this.confirm ?? { required: false };
  }
  async execute(p: z.output<typeof Echo>, options?: ToolExecutionOptions): Promise<ToolExecutionResult> {
    options?.onOutput?.('chunk:' + p.text);
    if (p.text === 'fail') return { content: 'it failed, try other text', isError: true };
    return {
      content: p.loud ? p.text.toUpperCase() : p.text,
      displayContent: `said ${p.text}`,
      metadata: { cwd: options?.cwd ?? null },
    };
  }
}

describe('the classic Tool API over the executor', () => {
  it('runs a classic tool with defaults applied, its output streamed as events and its display kept', async () => {
    const registry = new ToolRegistry().register(new EchoTool());
    const executor = new Executor({ registry });
    const chunks: string[] = [];
    executor.events.onType('tool.output', (e) => chunks.push(e.chunk));
    const r = await executor.call({ tool: 'echo', input: { text: 'hi' } });
    expect(r.status).toBe('success');
    expect(r.content).toEqual([{ type: 'text', text: 'hi' }]);
    expect(r.display).toEqual({ kind: 'text', text: 'said hi' });
    expect(r.metadata).toEqual({ cwd: null });
    expect(chunks).toEqual(['chunk:hi']);
  });

  it('turns isError into an error result and a bad input into INVALID_PARAMS with the reason', async () => {
    const executor = new Executor({ registry: new ToolRegistry().register(new EchoTool()) });
    const failed = await executor.call({ tool: 'echo', input: { text: 'fail' } });
    expect(failed.error).toMatchObject({ code: 'EXECUTION_FAILED', message: 'it failed, try other text' });
    const bad = await executor.call({ tool: 'echo', input: {} });
    expect(bad.error?.code).toBe('INVALID_PARAMS');
    expect(bad.error?.message).toMatch(/^Invalid parameters for echo: .*text/);
  });

  it('takes the effect from getConfirmation: a write asks in safe mode, a read does not', async () => {
    const tool = new EchoTool();
    const executor = new Executor({
      registry: new ToolRegistry().register(tool),
      policy: new Policy({ mode: 'safe' }),
    });
    expect((await executor.explain({ tool: 'echo', input: { text: 'a' } })).decision?.action).toBe('allow');
    tool.confirm = { required: true, message: 'writes a file' };
    const asked = await executor.explain({ tool: 'echo', input: { text: 'a' } });
    expect([asked.effect, asked.decision?.action, asked.classification?.reason]).toEqual([
      'write',
      'ask',
      'writes a file',
    ]);
    tool.confirm = { required: true, type: 'destructive' };
    expect((await executor.explain({ tool: 'echo', input: { text: 'a' } })).effect).toBe('destructive');
  });

  it('reads the modes none and all as ask and yolo, and refuses a mode that is none of them', () => {
    expect(new Policy({ mode: 'none' }).mode).toBe('ask');
    expect(new Policy({ mode: 'all' }).mode).toBe('yolo');
    const p = new Policy();
    p.mode = 'all';
    expect(p.mode).toBe('yolo');
    expect(() => new Policy({ mode: 'everything' as 'all' })).toThrow(/unknown mode "everything"/);
  });

  it('hands out faces over contract tools whose direct execute runs through an executor', async () => {
    const registry = new ToolRegistry().register(new EchoTool());
    const face = registry.getTool('echo')!;
    expect(face).toBeInstanceOf(EchoTool);
    expect(registry.getAllDefinitions()[0]).toMatchObject({ name: 'echo', parameters: { required: ['text'] } });
    expect(await face.execute({ text: 'x', loud: true })).toMatchObject({ content: 'X' });
  });

  it('points a class with the classic `schema` at the classic base class rather than failing each call', () => {
    // @ts-expect-error the classic shape on the contract's base class
    class Wrong extends ContractBaseTool<{ input: string }> {
      readonly name = 'my_tool';
      readonly description = 'Does something useful';
      readonly schema = z.object({ input: z.string() });
      readonly effect = 'read' as const;
      async execute() {
        return 'x';
      }
    }
    expect(() => new Wrong().jsonSchema).toThrow(/extend BaseTool from '@toolbelt\/core\/classic'/);
  });
});
