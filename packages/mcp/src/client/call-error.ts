// A failed request to an MCP server, in words the model can act on.
import { ToolError } from '@toolbelt/core';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';

export interface FailedCall {
  server: string;
  tool: string;
  /** How long the call may go without a result or progress. */
  idleMs: number;
  /** What the server last wrote to stderr, as a note to append (or ''). */
  stderrNote: string;
}

/** A tools/call that failed: timeouts and dropped connections are worth retrying, refused arguments need fixing. */
export function callError(err: unknown, c: FailedCall): ToolError {
  const where = `MCP server "${c.server}"`;
  if (err instanceof McpError) {
    if (err.code === ErrorCode.RequestTimeout) {
      return new ToolError(
        'TIMEOUT',
        `${c.tool} on ${where} sent no result or progress for ${c.idleMs} ms and was cancelled. Retry with less work per call, or raise "timeoutMs" for this server in toolbelt.config.json.`,
        { recoverable: true },
      );
    }
    if (err.code === ErrorCode.ConnectionClosed) {
      return new ToolError(
        'EXECUTION_FAILED',
        `${where} closed the connection during the ${c.tool} call (the server exited${c.stderrNote}). toolbelt is restarting it; call again in a moment.`,
        { recoverable: true },
      );
    }
    if (err.code === ErrorCode.InvalidParams) {
      return new ToolError(
        'INVALID_PARAMS',
        `${where} refused the arguments for ${c.tool}: ${err.message}. Fix them and call again.`,
        { recoverable: true },
      );
    }
  }
  const message = err instanceof Error ? err.message : String(err);
  return new ToolError('EXECUTION_FAILED', `${where} failed the ${c.tool} call: ${message}`);
}

/** Why connecting failed; a command that is not there says which and what to do. */
export function connectProblem(err: unknown, command: string | undefined): string {
  const e = err as NodeJS.ErrnoException;
  if (e?.code === 'ENOENT' && e.syscall?.startsWith('spawn')) {
    return `the command "${command}" was not found (ENOENT); fix "command" for this server in mcpServers or install it`;
  }
  return e instanceof Error ? e.message : String(err);
}
