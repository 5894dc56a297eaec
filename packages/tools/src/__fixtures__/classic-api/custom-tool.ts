// "Creating Custom Tools" of the classic Tool API, as written there. Changed: the import names this
// package (and brings the result type the example uses), and the class is exported.
import { BaseTool, type ToolExecutionResult } from '@toolbelt/core/classic';
import { z } from 'zod';

const MyToolSchema = z.object({
  input: z.string().describe('The input to process'),
});

export class MyTool extends BaseTool<z.infer<typeof MyToolSchema>> {
  readonly name = 'my_tool';
  readonly description = 'Does something useful';
  readonly schema = MyToolSchema;

  async execute(params: z.infer<typeof MyToolSchema>): Promise<ToolExecutionResult> {
    // Implementation
    return { content: `Processed: ${params.input}` };
  }
}
