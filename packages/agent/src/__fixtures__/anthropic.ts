// Anthropic Messages streams in the shape the API sends them: message_start, content blocks with
// text and input_json deltas, message_delta with the stop reason, message_stop.
export interface ToolUse {
  id: string;
  name: string;
  input: unknown;
}

export function anthropicStream(text: string, tools: ToolUse[] = []): unknown[] {
  const events: unknown[] = [
    {
      type: 'message_start',
      message: {
        id: 'msg_01',
        type: 'message',
        role: 'assistant',
        model: 'claude-test',
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: 25, output_tokens: 1 },
      },
    },
  ];
  let index = 0;
  if (text) {
    events.push({ type: 'content_block_start', index, content_block: { type: 'text', text: '' } });
    // Two deltas, so the text arrives streamed.
    const half = Math.ceil(text.length / 2);
    for (const part of [text.slice(0, half), text.slice(half)])
      events.push({ type: 'content_block_delta', index, delta: { type: 'text_delta', text: part } });
    events.push({ type: 'content_block_stop', index });
    index++;
  }
  for (const t of tools) {
    const json = JSON.stringify(t.input);
    events.push({
      type: 'content_block_start',
      index,
      content_block: { type: 'tool_use', id: t.id, name: t.name, input: {} },
    });
    const cut = Math.floor(json.length / 2);
    for (const part of [json.slice(0, cut), json.slice(cut)])
      events.push({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: part } });
    events.push({ type: 'content_block_stop', index });
    index++;
  }
  events.push({
    type: 'message_delta',
    delta: { stop_reason: tools.length ? 'tool_use' : 'end_turn', stop_sequence: null },
    usage: { output_tokens: 40 },
  });
  events.push({ type: 'message_stop' });
  return events;
}
