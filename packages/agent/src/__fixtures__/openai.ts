// OpenAI streams in the shapes the APIs send: Chat Completions chunks (tool calls by index, their
// arguments in pieces, usage last, then [DONE]) and Responses events (created, output items, deltas, completed).
export interface FunctionCall {
  id: string;
  name: string;
  input: unknown;
  /** The arguments as sent, when they are not the input's JSON (a model's broken JSON). */
  raw?: string;
}

const halves = (s: string) => [s.slice(0, Math.ceil(s.length / 2)), s.slice(Math.ceil(s.length / 2))];

export function chatStream(text: string, calls: FunctionCall[] = []): unknown[] {
  const chunk = (delta: unknown, finish: string | null = null) => ({
    id: 'chatcmpl-1',
    object: 'chat.completion.chunk',
    created: 1_700_000_000,
    model: 'gpt-test',
    choices: [{ index: 0, delta, finish_reason: finish, logprobs: null }],
  });
  const out: unknown[] = [chunk({ role: 'assistant', content: '' })];
  if (text) for (const part of halves(text)) out.push(chunk({ content: part }));
  calls.forEach((c, index) => {
    out.push(chunk({ tool_calls: [{ index, id: c.id, type: 'function', function: { name: c.name, arguments: '' } }] }));
    for (const part of halves(c.raw ?? JSON.stringify(c.input)))
      out.push(chunk({ tool_calls: [{ index, function: { arguments: part } }] }));
  });
  out.push(chunk({}, calls.length ? 'tool_calls' : 'stop'));
  out.push({
    id: 'chatcmpl-1',
    object: 'chat.completion.chunk',
    created: 1_700_000_000,
    model: 'gpt-test',
    choices: [],
    usage: { prompt_tokens: 30, completion_tokens: 12, total_tokens: 42 },
  });
  out.push('[DONE]');
  return out;
}

export function responsesStream(text: string, calls: FunctionCall[] = []): unknown[] {
  let seq = 0;
  const ev = (e: Record<string, unknown>) => ({ ...e, sequence_number: seq++ });
  const base = {
    id: 'resp_1',
    object: 'response',
    created_at: 1_700_000_000,
    model: 'gpt-test',
    output: [] as unknown[],
    parallel_tool_calls: true,
    tools: [],
  };
  const out: unknown[] = [ev({ type: 'response.created', response: { ...base, status: 'in_progress' } })];
  const items: unknown[] = [];
  if (text) {
    const message = { id: 'msg_1', type: 'message', role: 'assistant', status: 'in_progress', content: [] };
    out.push(ev({ type: 'response.output_item.added', output_index: 0, item: message }));
    out.push(
      ev({
        type: 'response.content_part.added',
        item_id: 'msg_1',
        output_index: 0,
        content_index: 0,
        part: { type: 'output_text', text: '', annotations: [] },
      }),
    );
    for (const delta of halves(text))
      out.push(
        ev({
          type: 'response.output_text.delta',
          item_id: 'msg_1',
          output_index: 0,
          content_index: 0,
          delta,
          logprobs: [],
        }),
      );
    const done = { ...message, status: 'completed', content: [{ type: 'output_text', text, annotations: [] }] };
    out.push(ev({ type: 'response.output_item.done', output_index: 0, item: done }));
    items.push(done);
  }
  for (const c of calls) {
    const index = items.length;
    const item = {
      id: `fc_${c.id}`,
      type: 'function_call',
      status: 'in_progress',
      call_id: c.id,
      name: c.name,
      arguments: '',
    };
    out.push(ev({ type: 'response.output_item.added', output_index: index, item }));
    const args = JSON.stringify(c.input);
    for (const delta of halves(args))
      out.push(ev({ type: 'response.function_call_arguments.delta', item_id: item.id, output_index: index, delta }));
    const done = { ...item, status: 'completed', arguments: args };
    out.push(ev({ type: 'response.output_item.done', output_index: index, item: done }));
    items.push(done);
  }
  const usage = {
    input_tokens: 30,
    output_tokens: 12,
    total_tokens: 42,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens_details: { reasoning_tokens: 0 },
  };
  out.push(ev({ type: 'response.completed', response: { ...base, status: 'completed', output: items, usage } }));
  return out;
}

/** The whole Response a non-streamed call returns: what the streamed one completes with. */
export function responseJson(text: string, calls: FunctionCall[] = []): unknown {
  const events = responsesStream(text, calls);
  return (events.at(-1) as { response: unknown }).response;
}
