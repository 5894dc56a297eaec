// `toolbelt call TOOL [JSON]`: one call through the executor, with terminal approval.
import { randomBytes } from 'node:crypto';
import {
  acceptDefaults,
  approveAll,
  declineAll,
  MAX_INPUT_CHARS,
  rejectAll,
  textOf,
  type Approver,
  type Elicitor,
  type EventBus,
  type ToolResult,
} from '@toolbelt/core';
import { COMMON_OPTIONS, EXIT, UsageError, type Command, type Io } from '../command.js';
import { defaultProviders } from '../providers.js';
import { createRuntime, type Runtime } from '../runtime.js';
import { onStopSignal, signalExitCode } from '../signals.js';
import { terminalApprover } from '../terminal/approver.js';
import { LiveCall, styleNotes } from '../terminal/live.js';
import { colorEnabled, styleFor } from '../terminal/style.js';
import { terminalElicitor } from '../terminal/elicitor.js';
import { TerminalPrompt } from '../terminal/prompt.js';

const USAGE = `Usage: toolbelt call TOOL [JSON] [options]

  JSON               the tool's input as a JSON object (default {}); "-" reads it from stdin
  --root DIR         workspace root (repeat for several; default: current directory)
  --config FILE      config file (default: <root>/toolbelt.config.json)
  --mode M           ask | safe | auto-edit | yolo (default: config, else safe)
  --yes              approve whatever the policy would ask about (denies still apply), and
                     answer an MCP server's questions with their defaults
  --non-interactive  never prompt: a call that needs approval is rejected, a server's
                     question declined
  --json             print the whole ToolResult as JSON
  --explain          print the policy decision for this call and run nothing
  --timeout MS       timeout for this call

Input over 4 MiB, or nested over 64 levels, is refused (INVALID_PARAMS).
SIGINT, SIGTERM or SIGHUP cancels the call and stops the command it runs, with
everything that command started.

Exit codes: 0 success, 1 tool error, 2 usage error, 3 rejected, 128+N stopped by signal N.`;

/**
 * stdin as text. Reading stops once it is past the executor's input limit: that much is refused
 * anyway, and a 10 MB (or endless) stream is not held in memory to find that out.
 */
async function readStdin(stream: NodeJS.ReadableStream): Promise<string> {
  stream.setEncoding('utf8'); // so a character split between two chunks stays whole
  let data = '';
  for await (const chunk of stream) {
    data += chunk;
    if (data.length > MAX_INPUT_CHARS) break;
  }
  return data;
}

/** The input for the executor: an object, or text over the size limit for the executor to refuse as any caller's would be. */
function parseInput(text: string): unknown {
  if (text.length > MAX_INPUT_CHARS) return text;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new UsageError(
      `the input is not valid JSON (${(err as Error).message}); pass an object such as '{"path":"README.md"}'`,
    );
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new UsageError(
      `the input must be a JSON object, not ${Array.isArray(value) ? 'an array' : JSON.stringify(value)}`,
    );
  }
  return value;
}

/**
 * Live output and the spinner, for a person at a terminal (--json and pipes get the result alone):
 * a command's output streams when stdout is a terminal, the spinner shows when stderr is one, and
 * keeps off the terminal while a question is asked there.
 */
function watch(
  events: EventBus,
  o: { callId: string; tool: string; io: Io; prompt: TerminalPrompt | undefined },
): LiveCall {
  const tty = (s: NodeJS.WritableStream) => Boolean((s as { isTTY?: boolean }).isTTY);
  const live = new LiveCall(events, {
    callId: o.callId,
    tool: o.tool,
    stdout: o.io.stdout,
    stderr: o.io.stderr,
    stream: tty(o.io.stdout),
    spinner: tty(o.io.stderr),
  });
  if (o.prompt) o.prompt.onDialog = (open) => live.pause(open);
  return live;
}

function printResult(result: ToolResult, io: Io, live: LiveCall | undefined): void {
  const err = styleFor(io.stderr);
  if (result.status === 'success' || result.status === 'pending') {
    const text = live ? live.remainder(textOf(result)) : textOf(result);
    if (text) io.stdout.write(`${styleNotes(text, styleFor(io.stdout))}\n`);
  } else if (result.status === 'rejected') io.stderr.write(`${err.yellow('rejected:')} ${textOf(result)}\n`);
  else io.stderr.write(`${err.red(`error ${result.error.code}:`)} ${result.error.message}\n`);
}

function exitCode(result: ToolResult): number {
  if (result.status === 'success' || result.status === 'pending') return EXIT.ok;
  if (result.status === 'rejected') return EXIT.rejected;
  return EXIT.toolError;
}

/** `--timeout MS`, given as a string by the argument parser. */
function parseTimeout(value: unknown): number | undefined {
  if (value === undefined) return undefined;
  const timeoutMs = Number(value);
  if (!Number.isInteger(timeoutMs) || timeoutMs <= 0)
    throw new UsageError(`--timeout must be a positive integer of milliseconds, not "${value}"`);
  return timeoutMs;
}

/** `--explain`: the policy's decision for the call, which does not run. */
async function explain(rt: Runtime, tool: string, input: unknown, json: boolean, io: Io): Promise<number> {
  const ex = await rt.executor.explain({ tool, input, origin: 'terminal' });
  if (json) io.stdout.write(JSON.stringify(ex, null, 2) + '\n');
  else if (ex.error) io.stdout.write(`${tool}: would fail before policy: ${ex.error.code}: ${ex.error.message}\n`);
  else {
    const c = ex.classification!;
    const d = ex.decision!;
    io.stdout.write(
      [
        `tool:     ${tool}`,
        `effect:   ${c.effect}${c.reason ? ` (${c.reason})` : ''}`,
        `decision: ${d.action}`,
        `decided by: ${d.source}: ${d.reason}`,
        ...(c.floor ? [`floor:    ${c.floor.level}: ${c.floor.reason}`] : []),
      ].join('\n') + '\n',
    );
  }
  return ex.error ? EXIT.toolError : EXIT.ok;
}

export const callCommand: Command = {
  name: 'call',
  usage: USAGE,
  positionals: true,
  options: {
    ...COMMON_OPTIONS,
    yes: { type: 'boolean', short: 'y' },
    'non-interactive': { type: 'boolean' },
    json: { type: 'boolean' },
    explain: { type: 'boolean' },
    timeout: { type: 'string' },
  },
  async run(values, positionals, io) {
    const [tool, rawInput, ...extra] = positionals;
    if (!tool) throw new UsageError(`name the tool to call.\n${USAGE}`);
    if (extra.length)
      throw new UsageError(`unexpected arguments: ${extra.join(' ')}; quote the JSON input as one argument`);
    const input = rawInput === undefined ? {} : parseInput(rawInput === '-' ? await readStdin(io.stdin) : rawInput);
    const timeoutMs = parseTimeout(values.timeout);
    const interactive = io.interactive && !values['non-interactive'] && rawInput !== '-';
    const prompt = interactive && !values.yes ? new TerminalPrompt(io.stdin, io.stderr) : undefined;
    const terminal = prompt
      ? terminalApprover(io.stdin, io.stderr, { color: colorEnabled(io.stderr), prompt })
      : undefined;
    const approver: Approver = values.yes ? approveAll : (terminal ?? rejectAll);
    const elicitor: Elicitor = values.yes ? acceptDefaults : prompt ? terminalElicitor(prompt) : declineAll;
    // A stop signal cancels the call, which stops the process group of a command it runs.
    const stop = new AbortController();
    let stoppedBy: NodeJS.Signals | undefined;
    const restoreSignals = onStopSignal((signal) => {
      stoppedBy = signal;
      stop.abort(new Error(`stopped by ${signal}`));
    });
    const rt = await createRuntime(values, {
      approvers: { terminal: approver },
      elicitors: { terminal: elicitor },
      providers: defaultProviders(),
    }).catch((err) => {
      restoreSignals();
      throw err;
    });
    try {
      if (values.explain) return await explain(rt, tool, input, Boolean(values.json), io);
      const callId = `cli_${randomBytes(6).toString('base64url')}`;
      const live = values.json ? undefined : watch(rt.executor.events, { callId, tool, io, prompt });
      const request = {
        tool,
        input,
        callId,
        ...(timeoutMs ? { timeoutMs } : {}),
        sessionId: 'cli',
        signal: stop.signal,
        origin: 'terminal' as const,
      };
      const result = await rt.executor.call(request).finally(() => live?.stop());
      if (values.json) io.stdout.write(JSON.stringify(result, null, 2) + '\n');
      else printResult(result, io, live);
      return stoppedBy ? signalExitCode(stoppedBy) : exitCode(result);
    } finally {
      terminal?.close();
      await rt.close();
      restoreSignals();
    }
  },
};
