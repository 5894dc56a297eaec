// The `gateway` execution type: an inline HTTP request to the configured URL.
import { ToolError, type ToolContext, type ToolOutput } from '@toolbelt/core';
import type { DeclaredTool } from '../config.js';

const MAX_RESPONSE_BYTES = 5 * 1024 * 1024;

type Execution = NonNullable<DeclaredTool['execution']>;

/** The request a call makes: GET and DELETE carry the input as query parameters, others as JSON. */
function buildRequest(execution: Execution, input: Record<string, unknown>): { url: URL; init: RequestInit } {
  const method = execution.method ?? 'POST';
  const url = new URL(execution.url);
  const headers: Record<string, string> = {
    accept: 'application/json, text/plain;q=0.9, */*;q=0.5',
    ...execution.headers,
  };
  let body: string | undefined;
  if (method === 'GET' || method === 'DELETE') {
    for (const [k, v] of Object.entries(input))
      if (v !== undefined) url.searchParams.set(k, typeof v === 'string' ? v : JSON.stringify(v));
  } else {
    body = JSON.stringify(input);
    headers['content-type'] ??= 'application/json';
  }
  return { url, init: { method, headers, ...(body !== undefined ? { body } : {}) } };
}

async function readCapped(res: Response, name: string): Promise<string> {
  if (!res.body) return '';
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_RESPONSE_BYTES) {
      await reader.cancel();
      throw new ToolError(
        'EXECUTION_FAILED',
        `${name}: the response is larger than ${MAX_RESPONSE_BYTES} bytes; ask the service for less`,
      );
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export async function httpCall(
  name: string,
  execution: Execution,
  input: Record<string, unknown>,
  ctx: ToolContext,
  fetchImpl: typeof fetch,
): Promise<ToolOutput> {
  const { url, init } = buildRequest(execution, input);
  let res: Response;
  try {
    res = await fetchImpl(url, { ...init, signal: ctx.signal });
  } catch (err) {
    if (ctx.signal.aborted) throw err;
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    throw new ToolError(
      'EXECUTION_FAILED',
      `${name}: could not reach ${url.host} (${cause?.code ?? cause?.message ?? (err as Error).message}); try again later`,
      { recoverable: true },
    );
  }
  const text = await readCapped(res, name);
  if (!res.ok) {
    const retry = res.status >= 500 || res.status === 429;
    const snippet = text.length > 500 ? `${text.slice(0, 500)}...` : text;
    throw new ToolError(
      'EXECUTION_FAILED',
      `${name}: ${url.host} answered HTTP ${res.status}${snippet ? `: ${snippet}` : ''}${retry ? '; try again later' : ''}`,
      { recoverable: retry },
    );
  }
  const metadata = { httpStatus: res.status };
  if (/\bjson\b/i.test(res.headers.get('content-type') ?? '') && text.trim()) {
    try {
      const json = JSON.parse(text) as unknown;
      return { content: [{ type: 'json', json }], structured: json, metadata };
    } catch {
      // Mislabelled JSON: hand back the text as it is.
    }
  }
  return { content: text || `(empty response, HTTP ${res.status})`, metadata };
}
