// `toolbelt agent`: an agent that lives in a gateway, driven by a model. It takes its think cycles
// from the gateway, shows the model each inbox with the gateway's prompt for the agent, and the
// model acts through the gateway's tools (policy, approvals and the log stay the gateway's).
import { readFileSync } from 'node:fs';
import { runGatewayAgent, type CycleRun } from '@toolbelt/agent';
import { GatewayClient } from '@toolbelt/client';
import { EXIT, UsageError, type Command, type Io } from '../command.js';
import { onStopSignal, signalExitCode } from '../signals.js';
import { chatModel, chooseModel, PROVIDER_NAMES } from './chat-model.js';
import { renderEvents } from './chat-render.js';

const USAGE = `Usage: toolbelt agent --gateway URL --agent ID --provider P --model M [options]

  --gateway URL      the gateway (toolbelt serve), e.g. http://127.0.0.1:7077
  --agent ID         the agent to be: its inbox, spaces, goals, memories and plans
  --provider P       ${PROVIDER_NAMES.join(' | ')} (openai: the Responses API; openai-chat: Chat Completions)
  --model M          the provider's model id
  --base-url URL     another server that speaks the provider's API
  --system TEXT      added after the gateway's prompt for the agent
  --tools A,B        the gateway tools the model gets besides the spaces' own (default: all)
  --cycles N         stop after N think cycles (default: run until stopped)
  --wait MS          how long each request waits for the inbox, at most 60000 (default 25000)
  --max-turns N      model turns per cycle at most (default 20)
  --token-file FILE  the gateway token (default: TOOLBELT_GATEWAY_TOKEN)

Each cycle: take the unread inbox, ask GET /api/agents/ID/prompt for the rules and the agent's
notes, let the model call the gateway's tools, end the cycle. The model's text goes to stdout; tool
calls and a line per cycle to stderr. The API key comes from the environment (ANTHROPIC_API_KEY,
OPENAI_API_KEY, GEMINI_API_KEY); a local server at --base-url needs none.

Exit codes: 0 done, 1 the provider or the gateway failed, 2 usage error, 128+N stopped by signal N.`;

function intFlag(name: string, raw: unknown, min: number, max = Number.MAX_SAFE_INTEGER): number | undefined {
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max)
    throw new UsageError(`--${name} must be an integer from ${min} to ${max}, not "${raw}"`);
  return n;
}

function required(values: Record<string, unknown>, name: string, what: string): string {
  const v = values[name] as string | undefined;
  if (!v) throw new UsageError(`name ${what}: --${name} ${name === 'gateway' ? 'URL' : 'ID'}`);
  return v;
}

function tokenOf(values: Record<string, unknown>): string | undefined {
  const file = values['token-file'] as string | undefined;
  if (!file) return process.env.TOOLBELT_GATEWAY_TOKEN || undefined;
  try {
    return readFileSync(file, 'utf8').trim();
  } catch (err) {
    throw new UsageError(`cannot read --token-file ${file}: ${(err as Error).message}`);
  }
}

function cycleLine(io: Io, r: CycleRun): void {
  const calls = r.run.messages.flatMap((m) => (m.role === 'assistant' ? m.toolCalls : [])).length;
  const end = r.skipped ? 'skipped' : r.run.stop;
  io.stderr.write(
    `cycle ${r.cycleId}: ${r.inbox} inbox message${r.inbox === 1 ? '' : 's'}, ${r.run.turns} model turns, ${calls} tool calls, ${end}\n`,
  );
}

export const agentCommand: Command = {
  name: 'agent',
  usage: USAGE,
  options: {
    gateway: { type: 'string' },
    agent: { type: 'string' },
    provider: { type: 'string' },
    model: { type: 'string' },
    'base-url': { type: 'string' },
    system: { type: 'string' },
    tools: { type: 'string' },
    cycles: { type: 'string' },
    wait: { type: 'string' },
    'max-turns': { type: 'string' },
    'token-file': { type: 'string' },
  },
  async run(values, _positionals, io) {
    const url = required(values, 'gateway', 'the gateway');
    const agentId = required(values, 'agent', 'the agent');
    const model = chatModel(chooseModel(values), process.env);
    const cycles = intFlag('cycles', values.cycles, 1);
    const waitMs = intFlag('wait', values.wait, 0, 60_000);
    const maxTurns = intFlag('max-turns', values['max-turns'], 1);
    const tools = (values.tools as string | undefined)
      ?.split(',')
      .map((t) => t.trim())
      .filter(Boolean);
    const token = tokenOf(values);
    const client = new GatewayClient({ url, agentId, ...(token ? { token } : {}) });
    const stop = new AbortController();
    let stoppedBy: NodeJS.Signals | undefined;
    const restore = onStopSignal((signal) => {
      stoppedBy = signal;
      stop.abort(new Error(`stopped by ${signal}`));
    });
    try {
      await runGatewayAgent({
        client,
        agentId,
        model,
        signal: stop.signal,
        onEvent: renderEvents(io),
        onCycle: (r) => cycleLine(io, r),
        ...(values.system ? { system: values.system as string } : {}),
        ...(tools ? { tools } : {}),
        ...(cycles !== undefined ? { cycles } : {}),
        ...(waitMs !== undefined ? { waitMs } : {}),
        ...(maxTurns !== undefined ? { maxTurns } : {}),
      });
      return stoppedBy ? signalExitCode(stoppedBy) : EXIT.ok;
    } catch (err) {
      if (stoppedBy) return signalExitCode(stoppedBy);
      io.stderr.write(`error: ${(err as Error).message}\n`);
      return EXIT.toolError;
    } finally {
      restore();
    }
  },
};
