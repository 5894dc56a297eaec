// A ToolServer on this process's stdin/stdout. Nothing else may write to stdout meanwhile.
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { ToolServer } from './server.js';

/** Serves until the client closes stdin; resolves then. */
export async function serveStdio(
  tools: ToolServer,
  stdin: NodeJS.ReadableStream = process.stdin,
  stdout: NodeJS.WritableStream = process.stdout,
): Promise<void> {
  const transport = new StdioServerTransport(stdin as import('node:stream').Readable, stdout as import('node:stream').Writable);
  const closed = new Promise<void>((resolve) => {
    transport.onclose = resolve;
    // StdioServerTransport does not notice the end of its input by itself.
    stdin.once('end', () => void transport.close());
  });
  await tools.connect(transport);
  await closed;
}
