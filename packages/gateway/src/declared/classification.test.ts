// A declared tool is the operator's own: the gateway specification's examples run in the default
// mode without an approval, and an explicit effect or requiresApproval in the declaration wins.
import { describe, expect, it } from 'vitest';
import { Executor, Policy, ToolRegistry, type Mode } from '@toolbelt/core';
import type { DeclaredTool } from '../config.js';
import { declaredTool, type DeclaredDeps } from './tool.js';

// Only a call's decision is asked here: nothing runs, so the store and waiters are never touched.
const deps = {} as DeclaredDeps;

const fetchExternalData: DeclaredTool = {
  name: 'fetchExternalData',
  description: 'Look up project data',
  inputSchema: { type: 'object', properties: { query: { type: 'string' } } },
  executionType: 'external',
  visible: false,
  isAsync: false,
  timeout: 10000,
};

async function decision(spec: DeclaredTool, mode?: Mode) {
  const executor = new Executor({
    registry: new ToolRegistry().register(declaredTool(spec, deps)),
    ...(mode ? { policy: new Policy({ mode }) } : {}),
  });
  const e = await executor.explain({ tool: spec.name, input: { query: 'active projects' } });
  return [e.effect, e.decision?.action];
}

describe('declared tools and approval', () => {
  it('runs the specification’s fetchExternalData in the default mode without asking', async () => {
    expect(await decision(fetchExternalData)).toEqual(['write', 'allow']);
    expect(
      await decision({
        ...fetchExternalData,
        executionType: 'gateway',
        execution: { url: 'https://pm.example.com/q' },
      }),
    ).toEqual(['write', 'allow']);
  });

  it('still asks in mode ask, and when the declaration says requiresApproval (in every mode)', async () => {
    expect(await decision(fetchExternalData, 'ask')).toEqual(['write', 'ask']);
    expect(await decision({ ...fetchExternalData, requiresApproval: true }, 'yolo')).toEqual(['write', 'ask']);
  });

  it('judges an explicit effect by the mode, unless requiresApproval is false (control)', async () => {
    expect(await decision({ ...fetchExternalData, effect: 'write' })).toEqual(['write', 'ask']);
    expect(await decision({ ...fetchExternalData, effect: 'read' })).toEqual(['read', 'allow']);
    expect(await decision({ ...fetchExternalData, effect: 'destructive', requiresApproval: false })).toEqual([
      'destructive',
      'allow',
    ]);
  });

  it('lets a deny rule stop a declared tool', async () => {
    const registry = new ToolRegistry().register(declaredTool(fetchExternalData, deps));
    const executor = new Executor({
      registry,
      policy: new Policy({ rules: [{ tool: 'fetchExternalData', action: 'deny' }] }),
    });
    expect((await executor.explain({ tool: 'fetchExternalData', input: {} })).decision?.action).toBe('deny');
  });
});
