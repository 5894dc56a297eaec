import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../define.js';
import { ToolRegistry } from '../registry.js';
import { Policy } from '../policy/policy.js';
import { ToolError, Workspace, type ToolContext } from '../tool.js';
import { Executor } from './executor.js';

describe('Workspace.none()', () => {
  it('has no roots and refuses every path, its own cwd included, with PERMISSION_DENIED', async () => {
    const ws = Workspace.none();
    expect(ws.roots).toEqual([]);
    const refused = await ws.resolve('/etc/hosts', 'read').catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(ToolError);
    expect(refused).toMatchObject({ code: 'PERMISSION_DENIED', message: expect.stringContaining('--root <dir>') });
    expect(() => ws.cwd).toThrow((refused as Error).message);
  });

  it('is what a tool gets from an executor made without a workspace, and its refusal is the call result', async () => {
    let seen: ToolContext['workspace'] | undefined;
    const registry = new ToolRegistry();
    registry.register(
      defineTool({
        name: 'cat',
        description: 'reads a file',
        input: z.object({ path: z.string() }),
        effect: 'read',
        async execute({ path }, ctx) {
          seen = ctx.workspace;
          return ctx.workspace.resolve(path, 'read');
        },
      }),
    );
    const executor = new Executor({ registry, policy: new Policy({ mode: 'yolo' }) });
    const r = await executor.call({ tool: 'cat', input: { path: 'a.txt' } });
    expect(seen).toBe(Workspace.none());
    expect(r.status).toBe('error');
    expect(r.error).toMatchObject({
      code: 'PERMISSION_DENIED',
      recoverable: false,
      message: expect.stringContaining('needs a workspace'),
    });
    await executor.close();
  });
});
