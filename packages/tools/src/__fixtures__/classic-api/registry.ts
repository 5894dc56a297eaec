// "API Reference: ToolRegistry" of the classic Tool API, as written there. Added: the imports, and
// a line that prints what the direct call returned.
import { ToolRegistry } from '@toolbelt/core/classic';
import { createBuiltinTools } from '@toolbelt/tools';
import { MyTool as MyCustomTool } from './custom-tool.js';

const registry = new ToolRegistry();

// Register built-in tools
registry.registerAll(createBuiltinTools());

// Register custom tool
registry.register(new MyCustomTool());

// Get tool for execution
const tool = registry.getTool('read_file');
if (tool) {
  const result = tool.validate({ path: '/tmp/test.txt' });
  if (result.valid) {
    const output = await tool.execute({ path: '/tmp/test.txt' });
    console.log(JSON.stringify({ valid: result.valid, output }));
  }
}
