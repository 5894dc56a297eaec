// The classic registry: the contract's registry (so an Executor runs from it) that also takes and
// hands out classic tools. A classic tool is stored as a contract tool; getTool gives its face back.
import { Executor } from '../executor/executor.js';
import { Policy } from '../policy/policy.js';
import { ToolRegistry as ContractRegistry } from '../registry.js';
import type { Tool as ContractTool } from '../tool.js';
import { classicFace, isContractTool, toContractTool } from './adapt.js';
import type { Tool, ToolDefinition } from './types.js';

export class ToolRegistry extends ContractRegistry {
  private readonly faces = new Map<string, Tool<any>>();
  private directRunner?: Executor;

  override register(tool: Tool<any> | ContractTool, opts: { replace?: boolean } = {}): this {
    const contract = isContractTool(tool) ? tool : toContractTool(tool);
    super.register(contract, opts);
    if (isContractTool(tool)) this.faces.delete(contract.name);
    else this.faces.set(contract.name, tool);
    return this;
  }

  override registerAll(tools: Iterable<Tool<any> | ContractTool>, opts: { replace?: boolean } = {}): this {
    const list = [...tools];
    super.registerAll(
      list.map((t) => (isContractTool(t) ? t : toContractTool(t))),
      opts,
    );
    for (const t of list) if (!isContractTool(t)) this.faces.set(t.definition.name, t);
    return this;
  }

  override unregister(name: string): boolean {
    this.faces.delete(name);
    return super.unregister(name);
  }

  /** The tool in the classic shape: as registered, or a face over a contract tool. */
  getTool(name: string): Tool<any> | undefined {
    const tool = this.get(name);
    if (!tool) return undefined;
    let face = this.faces.get(name);
    if (!face) {
      face = classicFace(tool, () => this.runner());
      this.faces.set(name, face);
    }
    return face;
  }

  getAllTools(): Tool<any>[] {
    return this.list().map((t) => this.getTool(t.name)!);
  }

  getAllDefinitions(): ToolDefinition[] {
    return this.getAllTools().map((t) => t.definition);
  }

  /**
   * Runs direct execute() calls of contract tools registered here as they are (not through faces,
   * which bring their own): the caller confirmed them, as the classic API has it, so the mode
   * approves everything; hard denies still hold, and with no workspace path tools say so.
   */
  private runner(): Executor {
    this.directRunner ??= new Executor({ registry: this, policy: new Policy({ mode: 'yolo' }) });
    return this.directRunner;
  }
}
