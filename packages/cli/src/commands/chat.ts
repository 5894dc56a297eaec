// `toolbelt chat`: a terminal agent on runAgent. Every tool call goes through the one executor,
// with the terminal prompt as its approver, like `toolbelt call`.
import { runAgent, type AgentMessage, type ModelProvider } from '@toolbelt/agent';
import { acceptDefaults, approveAll, declineAll, rejectAll, type Approver, type Elicitor } from '@toolbelt/core';
import { COMMON_OPTIONS, EXIT, UsageError, type Command, type Io } from '../command.js';
import { defaultProviders } from '../providers.js';
import { createRuntime, type Runtime } from '../runtime.js';
import { onStopSignal, signalExitCode } from '../signals.js';
import { terminalApprover } from '../terminal/approver.js';
import { terminalElicitor } from '../terminal/elicitor.js';
import { TerminalPrompt } from '../terminal/prompt.js';
import { colorEnabled } from '../terminal/style.js';
import { chatModel, chooseModel, PROVIDER_NAMES } from './chat-model.js';
import { renderEvents, showToolOutput } from './chat-render.js';

const USAGE = `Usage: toolbelt chat --provider P --model M [options]

  --provider P       ${PROVIDER_NAMES.join(' | ')} (openai: the Responses API; openai-chat: Chat Completions)
  --model M          the provider's model id
  --prompt TEXT      ask once, print the answer and exit (default: read prompts from stdin, one a line)
  --system TEXT      the system prompt
  --max-turns N      model turns per prompt at most (default 20)
  --base-url URL     another server that speaks the provider's API
  --root DIR         workspace root (repeat for several; default: current directory)
  --config FILE      config file (default: <root>/toolbelt.config.json)
  --mode M           ask | safe | auto-edit | yolo (default: config, else safe)
  --yes              approve whatever the policy would ask about (denies still apply)
  --non-interactive  never prompt: a call that needs approval is rejected, and the model is told so

The API key comes from the environment or the workspace's .env: ANTHROPIC_API_KEY, OPENAI_API_KEY,
GEMINI_API_KEY (or GOOGLE_API_KEY). The model's text goes to stdout; tool calls, approvals and
errors to stderr. An empty line is skipped; end the input (Ctrl-D) to leave.

Exit codes: 0 done, 1 the provider failed, 2 usage error, 128+N stopped by signal N.`;

interface Session {
  rt: Runtime;
  model: ModelProvider;
  io: Io;
  values: Record<string, unknown>;
  maxTurns: number;
  messages: AgentMessage[];
  /** The run in progress, which a stop signal aborts. */
  running?: AbortController;
  stoppedBy?: NodeJS.Signals;
}

function maxTurnsOf(raw: unknown): number {
  if (raw === undefined) return 20;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`--max-turns must be a positive integer, not "${raw}"`);
  return n;
}

/** One prompt through the loop; an exit code when it failed or a signal stopped it. */
async function ask(s: Session, prompt: string): Promise<number | undefined> {
  s.running = new AbortController();
  const stopOutput = showToolOutput(s.rt.executor.events, s.io, 'chat');
  try {
    const run = await runAgent({
      executor: s.rt.executor,
      model: s.model,
      messages: s.messages,
      prompt,
      ...(s.values.system ? { system: s.values.system as string } : {}),
      maxTurns: s.maxTurns,
      signal: s.running.signal,
      origin: 'terminal',
      sessionId: 'chat',
      onEvent: renderEvents(s.io),
    });
    s.messages = run.messages;
    if (run.stop === 'max_turns')
      s.io.stderr.write(`(stopped after ${run.turns} model turns, the --max-turns limit; say "go on" to continue)\n`);
    return undefined;
  } catch (err) {
    s.io.stderr.write(`error: ${s.model.provider} failed: ${(err as Error).message}\n`);
    return EXIT.toolError;
  } finally {
    stopOutput();
    s.running = undefined;
  }
}

/** Prompts from stdin, one a line, until the input ends or a signal stops the chat. */
async function converse(s: Session, prompt: TerminalPrompt): Promise<number> {
  let code: number = EXIT.ok;
  while (!s.stoppedBy) {
    const line = await prompt.ask('> ');
    if (line === undefined) break;
    if (line.trim()) code = (await ask(s, line)) ?? EXIT.ok;
  }
  return code;
}

export const chatCommand: Command = {
  name: 'chat',
  usage: USAGE,
  options: {
    ...COMMON_OPTIONS,
    provider: { type: 'string' },
    model: { type: 'string' },
    prompt: { type: 'string' },
    system: { type: 'string' },
    'max-turns': { type: 'string' },
    'base-url': { type: 'string' },
    yes: { type: 'boolean', short: 'y' },
    'non-interactive': { type: 'boolean' },
  },
  async run(values, _positionals, io) {
    const maxTurns = maxTurnsOf(values['max-turns']);
    const choice = chooseModel(values);
    // One reader for the chat's own prompt, approvals and a tool's questions.
    const prompt = new TerminalPrompt(io.stdin, io.stderr);
    const interactive = io.interactive && !values['non-interactive'];
    const terminal =
      interactive && !values.yes
        ? terminalApprover(io.stdin, io.stderr, { color: colorEnabled(io.stderr), prompt })
        : undefined;
    const approver: Approver = values.yes ? approveAll : (terminal ?? rejectAll);
    const elicitor: Elicitor = values.yes ? acceptDefaults : interactive ? terminalElicitor(prompt) : declineAll;
    const rt = await createRuntime(values, {
      approvers: { terminal: approver },
      elicitors: { terminal: elicitor },
      providers: defaultProviders(),
    });
    let restoreSignals = () => {};
    try {
      const session: Session = { rt, model: chatModel(choice, rt.env), io, values, maxTurns, messages: [] };
      // A stop signal aborts the run in progress (stopping what its tools started) and ends the chat.
      restoreSignals = onStopSignal((signal) => {
        session.stoppedBy = signal;
        session.running?.abort(new Error(`stopped by ${signal}`));
        prompt.close();
      });
      const code =
        values.prompt !== undefined
          ? ((await ask(session, values.prompt as string)) ?? EXIT.ok)
          : await converse(session, prompt);
      return session.stoppedBy ? signalExitCode(session.stoppedBy) : code;
    } finally {
      restoreSignals();
      prompt.close();
      await rt.close();
    }
  },
};
