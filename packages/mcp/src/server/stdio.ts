// A ToolServer on this process's stdin/stdout. Nothing else may write to stdout meanwhile.
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { ToolServer } from './server.js';
import { LineLimit, MAX_LINE_BYTES, tooLargeAnswer } from './line-limit.js';

/** Serves until the client closes stdin; resolves then. */
export async function serveStdio(
  tools: ToolServer,
  stdin: NodeJS.ReadableStream = process.stdin,
  stdout: NodeJS.WritableStream = process.stdout,
): Promise<void> {
  // Lines over the limit are answered here; the SDK's reader (limit raised past ours) never sees them.
  const lines = new LineLimit((id) => stdout.write(tooLargeAnswer(id, MAX_LINE_BYTES)));
  (stdin as import('node:stream').Readable).pipe(lines);
  const transport = new StdioServerTransport(lines, stdout as import('node:stream').Writable, {
    maxBufferSize: MAX_LINE_BYTES + 1024 * 1024,
  });
  const closed = new Promise<void>((resolve) => {
    transport.onclose = resolve;
    // StdioServerTransport does not notice the end of its input by itself.
    lines.once('end', () => void transport.close());
  });
  await tools.connect(transport);
  await closed;
}
