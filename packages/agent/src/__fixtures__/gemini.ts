// Gemini streamGenerateContent (alt=sse) in the shape the API sends: text in pieces, then one chunk
// with every function call (no ids, as Gemini 2.x sends them; a thought signature on the first),
// the finish reason and usage last.
export interface GeminiCall {
  name: string;
  args: Record<string, unknown>;
  id?: string;
}

export function geminiStream(text: string, calls: GeminiCall[] = []): unknown[] {
  const chunk = (parts: unknown[], finish?: string) => ({
    candidates: [{ content: { role: 'model', parts }, index: 0, ...(finish ? { finishReason: finish } : {}) }],
    ...(finish ? { usageMetadata: { promptTokenCount: 30, candidatesTokenCount: 12, totalTokenCount: 42 } } : {}),
    modelVersion: 'gemini-test',
  });
  const out: unknown[] = [];
  const half = Math.ceil(text.length / 2);
  if (text) out.push(chunk([{ text: text.slice(0, half) }]), chunk([{ text: text.slice(half) }]));
  const parts = calls.map((c, i) => ({
    functionCall: { ...(c.id ? { id: c.id } : {}), name: c.name, args: c.args },
    ...(i === 0 ? { thoughtSignature: 'c2lnbmF0dXJl' } : {}),
  }));
  out.push(chunk(parts, 'STOP'));
  return out;
}
